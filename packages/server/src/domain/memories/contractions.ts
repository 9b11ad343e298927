/**
 * Contractions in a memory query, read as the words they stand for (issue 49): a full-text index
 * splits "can't" into "can" and "t", and "won't" into "won" and "t", so a question "What can't
 * Tom eat?" matched "I won't make it" by the "t" alone. A negation's "n't" and a clitic's "'s",
 * "'d", "'ll", "'m", "'re", "'ve" carry no subject; the stem keeps its own word ("won't" is
 * "will", not the past of "win"). Memory search only: snapshot search keeps its queries as
 * they are.
 */
const NEGATION = /\b(\p{L}+)n['’]t\b/giu;
const CLITIC = /\b(\p{L}+)['’](s|d|ll|m|re|ve)\b/giu;
const IRREGULAR: Record<string, string> = { wo: 'will', ca: 'can', sha: 'shall', ai: 'is' };

export function withoutContractions(query: string): string {
  return query
    .replace(NEGATION, (_, stem: string) => IRREGULAR[stem.toLowerCase()] ?? stem)
    .replace(CLITIC, (_, stem: string) => stem);
}
