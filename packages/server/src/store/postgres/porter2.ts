import { createRequire } from 'node:module';

/**
 * Snowball's English stemmer (Porter2), the one PostgreSQL's 'english' configuration uses.
 * wink-porter2-stemmer is CommonJS without types: one function, a word in, its stem out.
 */
export const porter2: (word: string) => string = createRequire(import.meta.url)('wink-porter2-stemmer');
