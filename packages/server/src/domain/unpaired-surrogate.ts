import { textPathWhere } from './nul-text.js';

/**
 * A lone UTF-16 surrogate (`"\ud800"` with no partner) is valid JSON but no text: it has no
 * UTF-8 form, so each store kept something else than was sent (SQLite three U+FFFD, PostgreSQL
 * one) while the 201 echoed the original (issue 46). Refused, naming the field, on every store.
 */
export const SURROGATE_REASON = 'must be valid Unicode text: it holds a lone UTF-16 surrogate (\\uD800–\\uDFFF)';

/** In a `u` expression a pair is one code point: only a surrogate standing alone is one. */
const LONE_SURROGATE = /\p{Cs}/u;

/** The path (`name`, `tags[1]`, `emotion.mood`) of the first string or key that is not well-formed Unicode. */
export const unpairedSurrogatePath = (value: unknown, prefix = ''): string | undefined =>
  textPathWhere(value, (text) => LONE_SURROGATE.test(text), prefix);
