#!/usr/bin/env bash
# check-citations.sh — run from the repository root (or pass it as $1).
# Fails (exit 1) when
#   1. a citation of the old contract documents is left ("DESIGN 4.4", "spec 8.4",
#      "DESIGN section 1.2", "spec §8.4", "the spec", a bare "DESIGN", "DESIGN.md",
#      "service-spec.md"), or a half-rewritten token "§{D…}" / "§{S…}";
#   2. a "design §N" / "design §N.M" citation names a section that docs/design.md does not have
#      (headings "## N. …" and "### N.M …"), or docs/design.md itself refers to a "§N.M" it does
#      not have.
set -u
root=${1:-.}
cd "$root" || exit 2
design=docs/design.md
[ -f "$design" ] || { echo "citations-check: $design not found" >&2; exit 2; }

files() { git ls-files -z -- packages docs bench scripts README.md ':!docs/design.md' ':!**/package-lock.json' ':!scripts/check-citations.sh'; }
status=0

# 1. Old-style citations.
old='\b(DESIGN|[Ss]pec)( section| §|§)? ?[0-9]+(\.[0-9]+)*|\bDESIGN\b|DESIGN\.md|service-spec(\.md)?|§\{[DS][0-9.]*\}'
if files | xargs -0 grep -nIE "$old" >/tmp/citations-old.$$ 2>/dev/null; then
  echo "Old-style citations left:"; cat /tmp/citations-old.$$; status=1
fi
if files | xargs -0 grep -nIE '\b[Tt]he spec\b' 2>/dev/null | grep -vE 'spec reporter|test-reporter' >/tmp/citations-old.$$; then
  echo '"the spec" left:'; cat /tmp/citations-old.$$; status=1
fi
rm -f /tmp/citations-old.$$

# 2. Sections that exist in docs/design.md.
sections=$(grep -oE '^#{2,4} [0-9]+(\.[0-9]+)*' "$design" | sed -E 's/^#+ //' | sort -u)
has() { grep -qxF "$1" <<<"$sections"; }

# Every "design §…" citation, with lists ("design §4.1, §3.7", "§5.3-§5.5").
while IFS= read -r hit; do
  where=${hit%%:design*}; where=${where%%:Design*}
  for n in $(grep -oE '§[0-9]+(\.[0-9]+)*' <<<"${hit#*:*:}" | tr -d '§'); do
    has "$n" || { echo "$where: design §$n does not exist in $design"; status=1; }
  done
done < <(files | xargs -0 grep -noIE '[Dd]esign §[0-9]+(\.[0-9]+)*((, |; | and | or |/| / |-|–)§[0-9]+(\.[0-9]+)*)*' 2>/dev/null)

# References inside docs/design.md itself.
while IFS=: read -r line ref; do
  n=${ref#§}
  has "$n" || { echo "$design:$line: §$n does not exist"; status=1; }
done < <(grep -noE '§[0-9]+(\.[0-9]+)*' "$design")

[ $status -eq 0 ] && echo "citations-check: every citation names a section of $design"
exit $status
