import { readFile } from 'node:fs/promises';
import { characterLength } from '../domain/validate.js';
import { UsageError } from './io.js';

/** The text of a file, or of standard input for `-`, trimmed and within `min`–`max` characters. */
export async function readTextArgument(path: string | undefined, bounds: { min: number; max: number }, usage: string) {
  if (path === undefined) throw new UsageError(usage);
  let text: string;
  if (path === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    text = Buffer.concat(chunks).toString('utf8');
  } else {
    text = await readFile(path, 'utf8');
  }
  const trimmed = text.trim();
  const length = characterLength(trimmed);
  if (length < bounds.min || length > bounds.max) {
    throw new UsageError(
      `the text must have ${bounds.min} to ${bounds.max} characters after trimming; it has ${length}`,
    );
  }
  return trimmed;
}

/**
 * Where long work is, on standard error: one line rewritten in place on a terminal
 * (`extract 3/8`), one line per phase otherwise, so a log shows the phases without the noise.
 */
export function progressOnStderr(): (p: { phase: string; done: number; total: number }) => void {
  const terminal = process.stderr.isTTY === true;
  let lastPhase = '';
  return ({ phase, done, total }) => {
    if (terminal) {
      process.stderr.write(`\r${phase} ${done}/${total}`.padEnd(30));
      if (phase === 'crystallize' && done === total) process.stderr.write('\n');
    } else if (phase !== lastPhase) {
      process.stderr.write(`${phase}…\n`);
    }
    lastPhase = phase;
  };
}
