/**
 * U+0000, the one character PostgreSQL cannot store in text (nor jsonb escape): SQLite keeps it,
 * so what a request or an import file may hold depends on the store (`StoreCapabilities.storesNul`). Where
 * the store cannot keep it, a text holding it is refused up front, naming the field, rather
 * than failing in the database as a 500 or an import job's INTERNAL.
 */
export const NUL_REASON =
  'must not contain the NUL character (U+0000): this server’s PostgreSQL database cannot store it';

/**
 * The path (`name`, `emotion.mood`, `tags[2]`) of the first string or key holding U+0000 in
 * `value`, or undefined. Iterative, like nesting.ts's walks: any depth is safe.
 */
export function nulPath(value: unknown, prefix = ''): string | undefined {
  return textPathWhere(value, (text) => text.includes('\u0000'), prefix);
}

/**
 * The path of the first string or key of `value` for which `bad` holds (nulPath, and
 * unpaired-surrogate.ts's check), or undefined.
 */
export function textPathWhere(value: unknown, bad: (text: string) => boolean, prefix = ''): string | undefined {
  const stack: { value: unknown; path: string }[] = [{ value, path: prefix }];
  while (stack.length > 0) {
    const item = stack.pop() as (typeof stack)[number];
    if (typeof item.value === 'string') {
      if (bad(item.value)) return item.path || '(body)';
      continue;
    }
    if (typeof item.value !== 'object' || item.value === null) continue;
    const array = Array.isArray(item.value);
    for (const [key, child] of array ? (item.value as unknown[]).entries() : Object.entries(item.value)) {
      const path = array ? `${item.path}[${key}]` : item.path ? `${item.path}.${key}` : String(key);
      if (!array && bad(String(key))) return path;
      stack.push({ value: child, path });
    }
  }
  return undefined;
}
