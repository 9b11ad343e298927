import { eng } from 'stopword';

const STOP_WORDS = new Set(eng);
/** Lower-case words that may stand inside a name: "Bay of Bengal", "Ludwig van Beethoven". */
const NAME_JOINERS = new Set([
  'of',
  'the',
  'and',
  'for',
  'de',
  'del',
  'della',
  'da',
  'di',
  'du',
  'la',
  'le',
  'van',
  'von',
]);
/** A word (with inner apostrophes: "O'Brien") or one mark that is not a word, which ends a name. */
const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*|[^\s\p{L}\p{N}]/gu;
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The things a text names — people, places, works, organisations — read as its runs of two or
 * more capitalised words, which may hold a lower-case joiner ("Bay of Bengal"): each as its
 * lower-case words, in order of first appearance, each once. Stop words that open or close a
 * run ("The", "In" at the start of a sentence) are not part of the name, and a run that leaves
 * one word alone is left out: a single capitalised word is as often a sentence's first word as
 * a name. Two snapshots that name the same rare thing are about one subject even when they share
 * few other words (docs/auto-edges.md).
 */
export function namedThings(text: string): NamedThing[] {
  const found = new Map<string, NamedThing>();
  let run: string[] = [];
  const close = () => {
    let start = 0;
    let end = run.length;
    while (start < end && isStop(run[start] as string)) start++;
    while (end > start && (isStop(run[end - 1] as string) || NAME_JOINERS.has(run[end - 1] as string))) end--;
    const name = run.slice(start, end);
    const words = name.flatMap((token) => token.toLowerCase().match(WORD) ?? []);
    const key = words.join(' ');
    if (words.length >= 2 && !found.has(key)) found.set(key, { words, text: name.join(' ') });
    run = [];
  };
  for (const [token] of text.matchAll(TOKEN)) {
    if (/^\p{Lu}/u.test(token)) run.push(token);
    else if (run.length > 0 && NAME_JOINERS.has(token)) run.push(token);
    else close();
  }
  close();
  return [...found.values()];
}

/** A thing a text names: its lower-case words, and as the text first wrote it. */
export interface NamedThing {
  words: string[];
  text: string;
}

const isStop = (token: string) => STOP_WORDS.has(token.toLowerCase());
