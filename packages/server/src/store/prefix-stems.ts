/**
 * Prefix queries over a stemmed index. Both stores index stems ("optimization" as "optim") and
 * match a prefix query against them, so `optimiz*` finds nothing: the prefix is longer than the
 * stem of the very words it begins. The cure is to ask also for the stems of the words the
 * prefix plausibly begins: the prefix completed with common English endings ("optimization",
 * "optimizing", …), stemmed by the store's own stemmer, keeping those the prefix itself does not
 * already reach. What is added is always a stem of a word that starts with the prefix, so the
 * search widens only as far as stemming already widens a plain word.
 */

/** Endings Porter-style stemmers strip, inflectional and derivational, longest chains included. */
const ENDINGS = [
  ...['s', 'es', 'ed', 'ing', 'e', 'er', 'ers', 'est', 'y', 'ies', 'ied', 'ly', 'ily'],
  ...['ation', 'ations', 'ational', 'ationally', 'ion', 'ions', 'ional', 'ionally', 'ator', 'ators'],
  ...['ize', 'izes', 'ized', 'izing', 'izer', 'izers', 'ization', 'izations'],
  ...['ise', 'ises', 'ised', 'ising', 'isation', 'isations'],
  ...['al', 'ally', 'ality', 'alism', 'alist', 'alize', 'alized', 'alization', 'alizations'],
  ...['ate', 'ates', 'ated', 'ating', 'ative', 'atively', 'ic', 'ical', 'ically', 'icity'],
  ...['ness', 'ment', 'ments', 'ement', 'ful', 'fully', 'fulness', 'less', 'lessness'],
  ...['ive', 'ively', 'iveness', 'ivity', 'ous', 'ously', 'ousness', 'able', 'ably', 'ability'],
  ...['ible', 'ibility', 'ism', 'isms', 'ist', 'ists', 'ity', 'ities', 'ence', 'ences', 'ance'],
  ...['ances', 'ent', 'ently', 'ant', 'antly', 'or', 'ors'],
];

/** Shorter prefixes already reach most of their words; their completions would be noise. */
const MIN_PREFIX = 4;
const MIN_STEM = 3;
const CACHE_SIZE = 1000;

const ASCII_WORD = /^[a-z]+$/;

/** Words that start with `prefix` and end with a common ending, the ending possibly begun in it. */
function completionsOf(prefix: string): string[] {
  const words = new Set<string>();
  for (const ending of ENDINGS) {
    for (let begun = 0; begun < ending.length; begun++) {
      if (prefix.endsWith(ending.slice(0, begun))) words.add(prefix + ending.slice(begun));
    }
  }
  return [...words];
}

/**
 * A store's answer to "which stems does `prefix*` miss?", for its stemmer. The stems returned
 * are ones the stemmer leaves as they are, so the store can send them as plain query words (a
 * query word is stemmed again) and each still matches itself.
 */
export function prefixStemsFor(stem: (word: string) => string): (prefix: string) => string[] {
  const cache = new Map<string, string[]>();
  return (prefix) => {
    const known = cache.get(prefix);
    if (known) return known;
    const stems = missedStems(prefix, stem);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    cache.set(prefix, stems);
    return stems;
  };
}

function missedStems(prefix: string, stem: (word: string) => string): string[] {
  if (prefix.length < MIN_PREFIX || !ASCII_WORD.test(prefix)) return [];
  // The store stems the prefix of a prefix query too: what it reaches starts with that stem.
  const reached = stem(prefix);
  const missed = new Set<string>();
  for (const word of completionsOf(prefix)) {
    const s = stem(word);
    // A stem longer than the prefix came from an ending glued on, not from a word it begins.
    const overshot = s.length >= MIN_STEM && s.length <= prefix.length && !s.startsWith(reached);
    if (overshot && stem(s) === s) missed.add(s);
  }
  return [...missed].sort();
}
