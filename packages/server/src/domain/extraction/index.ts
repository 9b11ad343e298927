// TEMPORARY STUB until the extractor branch merges (not to be committed).
export interface ExtractedSnapshot {
  name: string;
  core: string;
  type: 'Belief' | 'Model' | 'Rule' | 'Conviction' | 'Principle';
  one_liner: string;
  story?: string;
  method?: string;
  steps?: string;
  challenge?: string;
  tags: string[];
  confidence: number;
  significance_score: number;
}
export interface ExtractedEntry {
  entry_type: 'concept' | 'framework' | 'protocol' | 'principle' | 'technique' | 'quote' | 'case_study' | 'definition';
  title: string;
  content: string;
}
export interface ExtractedMemory {
  content: string;
  memory_type: 'fact' | 'decision' | 'insight' | 'story' | 'framework' | 'preference' | 'event';
  tags: string[];
}
const sentences = (text: string) =>
  text
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 20);
export function extractSnapshots(text: string): ExtractedSnapshot[] {
  return sentences(text).map((s) => ({
    name: s
      .split(/\s+/)
      .slice(0, 5)
      .join(' ')
      .replace(/[.!?,;:]$/, ''),
    core: s,
    type: /always|never|must|should/i.test(s) ? 'Rule' : 'Belief',
    one_liner: s.slice(0, 500),
    tags: [],
    confidence: 0.5,
    significance_score: 0.5,
  }));
}
export function extractKnowledgeEntries(
  text: string,
  _context: { title: string; domain?: string | null },
): ExtractedEntry[] {
  return sentences(text).map((s) => ({
    entry_type: 'concept',
    title: s.split(/\s+/).slice(0, 6).join(' '),
    content: s,
  }));
}
export function extractMemories(text: string): ExtractedMemory[] {
  return sentences(text).map((s) => ({ content: s, memory_type: 'fact', tags: [] }));
}
export const estimateTokens = (text: string) => Math.ceil(text.length / 4);
export function chunkText(text: string, maxTokens: number): string[] {
  const out: string[] = [];
  let cur = '';
  for (const s of text.split(/(?<=[.!?])\s+/)) {
    if (cur && estimateTokens(cur + ' ' + s) > maxTokens) {
      out.push(cur);
      cur = s;
    } else cur = cur ? cur + ' ' + s : s;
  }
  if (cur) out.push(cur);
  return out;
}
