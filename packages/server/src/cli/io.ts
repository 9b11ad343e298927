/** Where a command writes; tests capture it instead of the process streams. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: CliIo = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

export class UsageError extends Error {}

export function table(rows: Record<string, unknown>[], columns: string[]): string {
  const cells = rows.map((row) => columns.map((c) => (row[c] === null || row[c] === undefined ? '-' : String(row[c]))));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]?.length ?? 0)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(columns), ...cells.map(line)].join('\n');
}

/** The largest limit a key can hold: PostgreSQL's `integer` column, and far beyond any real one. */
const MAX_LIMIT = 2_147_483_647;

export function positiveInteger(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_LIMIT) {
    throw new UsageError(`${name} must be a whole number from 1 to ${MAX_LIMIT}`);
  }
  return Number(value);
}
