/**
 * Markdown read as a document (design §13.4): the mdast tree of a real CommonMark + GFM parser
 * (micromark, a state machine: linear in its input, no regular-expression backtracking), turned
 * into the plain layout the extractor reads (structure.ts), one section per heading. What is not
 * prose is left out: code, tables, HTML, images and badges, diagrams, link lists, front matter,
 * link reference definitions and footnote definitions. Links keep their text, never their address.
 */
import type { List, ListItem, Paragraph, PhrasingContent, Root, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';

/** The text under one heading path, in the layout structure.ts reads. */
export interface Section {
  /** The headings above it, outermost first; empty before the first heading. */
  path: string[];
  text: string;
}

/** Box-drawing, block and arrow characters: a line drawn with them is a diagram, not prose. */
const DIAGRAM = /[\u2500-\u259f\u25a0-\u25ff\u2190-\u21ff\u27f0-\u27ff]/u;
/** An alert's marker at the start of a blockquote (`[!NOTE]`). */
const ALERT = /^\[!\w+\]\s*/;
/** Words of prose a paragraph needs beside its links to be more than a link list. */
const WORDS_BESIDE_LINKS = 4;

interface Inline {
  text: string;
  /** Words inside links: a paragraph that is mostly links is a link list. */
  linkWords: number;
}

/** The words of a run of inline content: links by their text, images, HTML and notes left out. */
function inline(nodes: PhrasingContent[]): Inline {
  let text = '';
  let linkWords = 0;
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
      case 'inlineCode':
        text += node.value;
        break;
      case 'break':
        text += '\n';
        break;
      case 'link':
      case 'linkReference': {
        const inner = inline(node.children);
        // A bare address (an autolink, "<https://…>") has no words to keep.
        if ('url' in node && (inner.text === node.url || /^(?:https?:\/\/|www\.|mailto:)/i.test(inner.text))) break;
        text += inner.text;
        linkWords += wordCount(inner.text);
        break;
      }
      case 'emphasis':
      case 'strong':
      case 'delete': {
        const inner = inline(node.children);
        text += inner.text;
        linkWords += inner.linkWords;
        break;
      }
      // image, imageReference, html, footnoteReference: not words of the sentence.
      default:
        break;
    }
  }
  return { text, linkWords };
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** A paragraph's prose, or null when it is not prose: a badge row, a link list, a diagram. */
function prose(paragraph: Paragraph): string | null {
  const { text, linkWords } = inline(paragraph.children);
  const lines = text
    .replace(ALERT, '')
    .split('\n')
    .filter((line) => !DIAGRAM.test(line))
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const kept = lines.join('\n');
  const words = wordCount(kept);
  if (words === 0) return null;
  // Mostly links: a row of links or a link and a word ("[Docs](…) | [API](…)").
  if (linkWords > 0 && words - linkWords < WORDS_BESIDE_LINKS) return null;
  return kept;
}

/** A list as `- item` lines (nested items indented), its link-only and empty items left out. */
function listLines(list: List, depth: number, out: string[]): void {
  list.children.forEach((item: ListItem, index) => {
    const marker = list.ordered ? `${(list.start ?? 1) + index}.` : '-';
    const texts: string[] = [];
    const nested: List[] = [];
    for (const child of item.children) {
      if (child.type === 'paragraph') {
        const text = prose(child);
        if (text !== null) texts.push(text.replace(/\n/g, ' '));
      } else if (child.type === 'list') nested.push(child);
    }
    if (texts.length > 0) out.push(`${'  '.repeat(depth)}${marker} ${texts.join(' ')}`);
    for (const inner of nested) listLines(inner, depth + 1, out);
  });
}

/** The plain text of a heading: its words, without marks, links' addresses or badges. */
function headingText(children: PhrasingContent[]): string {
  return inline(children).text.replace(/\s+/g, ' ').trim();
}

/** Blocks of prose (paragraphs and lists) of the nodes, in order; everything else is left out. */
function blocksOf(nodes: RootContent[], out: string[]): void {
  nodes.forEach((node, index) => {
    if (node.type === 'paragraph') {
      const text = prose(node);
      // "To connect using Sentinel, use:" introduces the code left out below it: nothing to say alone.
      const next = nodes[index + 1];
      if (text !== null && /:$/.test(text) && (next === undefined || !PROSE_NODES.has(next.type))) return;
      if (text !== null) out.push(text);
    } else if (node.type === 'list') {
      const lines: string[] = [];
      listLines(node, 0, lines);
      if (lines.length === 0) return;
      // A paragraph ending in a colon right above the list is its header (structure.ts).
      const last = out.at(-1);
      if (last !== undefined && /:$/.test(last)) out[out.length - 1] = `${last}\n${lines.join('\n')}`;
      else out.push(lines.join('\n'));
    } else if (node.type === 'blockquote') {
      blocksOf(node.children, out);
    }
    // code, html, table, thematicBreak, definition, footnoteDefinition, yaml, toml: not prose.
  });
}

/** The nodes whose words are read: a colon before anything else introduces what was left out. */
const PROSE_NODES = new Set(['paragraph', 'list', 'blockquote']);

/** Parses Markdown into its sections' plain text. Linear in the input. */
export function markdownSections(markdown: string): Section[] {
  const tree: Root = fromMarkdown(markdown, {
    extensions: [gfm(), frontmatter(['yaml', 'toml'])],
    mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml', 'toml'])],
  });
  const sections: Section[] = [];
  const headings: { depth: number; text: string }[] = [];
  let body: RootContent[] = [];
  const flush = () => {
    const blocks: string[] = [];
    blocksOf(body, blocks);
    body = [];
    if (blocks.length > 0) sections.push({ path: headings.map((h) => h.text), text: blocks.join('\n\n') });
  };
  for (const node of tree.children) {
    if (node.type !== 'heading') {
      body.push(node);
      continue;
    }
    const text = headingText(node.children);
    // A heading of only badges or images names nothing: the text goes on under the one before.
    if (text === '' || DIAGRAM.test(text)) continue;
    flush();
    while (headings.length > 0 && headings.at(-1)!.depth >= node.depth) headings.pop();
    headings.push({ depth: node.depth, text });
  }
  flush();
  return sections;
}
