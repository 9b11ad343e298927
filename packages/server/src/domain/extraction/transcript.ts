/**
 * Transcripts as meeting tools export them, brought to the one shape the reader knows
 * (`Speaker: words` lines, structure.ts): WebVTT and SRT (Zoom, Teams; cue numbers and timing
 * lines dropped, `<v Sam>` voice tags read), Otter-style blocks (`Sam Lee  0:03` on a line of its
 * own, the words below it) and Zoom chat lines (`12:03:44 From Sam to Everyone: …`). One pass
 * over the lines; a text in none of these shapes comes back as it was.
 */

const VTT_HEADER = /^(?:WEBVTT|NOTE\b|STYLE\b|REGION\b)/;
const CUE_NUMBER = /^\d{1,6}$/;
const CUE_TIMING = /^\s*(?:\d{1,2}:)?\d{1,2}:\d{2}[.,]\d{1,3}\s*-->\s*(?:\d{1,2}:)?\d{1,2}:\d{2}[.,]\d{1,3}/;
const VOICE_TAG = /^<v(?:\.[\w.-]+)?\s+([^>]{1,60})>\s*(.*?)(?:<\/v>)?\s*$/;
/** Otter: "Sam Lee  0:03" or "Sam Lee 01:02:03" alone on its line, the turn's words below. */
const OTTER_SPEAKER =
  /^\s*([\p{Lu}][\p{L}'.-]*(?: [\p{Lu}][\p{L}'.-]*){0,2}|Speaker \d+)\s+(?:\d{1,2}:)?\d{1,2}:\d{2}\s*$/u;
const ZOOM_CHAT =
  /^\s*(?:\d{1,2}:\d{2}(?::\d{2})?\s+)?From\s+(.{1,60}?)\s+to\s+(?:Everyone|Me|[^:]{1,60})\s*:\s*(.*)$/i;

/** A turn as structure.ts reads it for sure: a timestamp, then the label (a speaker seen once too). */
const turn = (speaker: string, words: string) => `[0:00] ${speaker}: ${words}`;

export function normalizeTranscript(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let speaker: string | null = null;
  for (const line of lines) {
    const chat = ZOOM_CHAT.exec(line);
    if (chat) {
      out.push(turn(chat[1]!, chat[2]!));
      speaker = null;
      continue;
    }
    const otter = OTTER_SPEAKER.exec(line);
    if (otter) {
      // A new turn: a blank line before it, its words labelled below.
      speaker = otter[1] ?? null;
      out.push('');
      continue;
    }
    if (
      VTT_HEADER.test(line) ||
      CUE_TIMING.test(line) ||
      (CUE_NUMBER.test(line.trim()) && (out.at(-1) ?? '').trim() === '')
    ) {
      continue;
    }
    const voice = VOICE_TAG.exec(line);
    if (voice) {
      out.push(turn(voice[1]!.trim(), voice[2]!));
      continue;
    }
    if (speaker !== null && line.trim() !== '') {
      out.push(turn(speaker, line.trim()));
      speaker = null;
      continue;
    }
    out.push(line);
  }
  return out.join('\n');
}
