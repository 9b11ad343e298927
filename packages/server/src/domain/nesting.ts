/**
 * The deepest nesting of arrays and objects a JSON value may have (the body, or any record of
 * an import file). Far beyond any real body (an `emotion` of 4 KiB needs a handful of levels),
 * and far below what recursive code can take: JSON.stringify, Ajv and the stores' serializers all
 * recurse, and an `emotion` nested 4,500 levels deep (9 KB) overflowed the size check's stack.
 */
export const MAX_NESTING = 64;

/**
 * Where `value` nests deeper than `max`, as a field path (`emotion`, `data.emotion`), or
 * undefined. Walks with a stack of its own: never recursion, so any depth is safe to check.
 */
export function tooDeep(value: unknown, max = MAX_NESTING, prefix = ''): string | undefined {
  const stack: { value: unknown; depth: number; path: string }[] = [{ value, depth: 0, path: prefix }];
  while (stack.length > 0) {
    const item = stack.pop() as (typeof stack)[number];
    if (typeof item.value !== 'object' || item.value === null) continue;
    const depth = item.depth + 1;
    if (depth > max) return item.path || '(body)';
    const entries = Array.isArray(item.value) ? item.value.entries() : Object.entries(item.value);
    for (const [key, child] of entries) {
      if (typeof child === 'object' && child !== null) {
        // The field named is the top-level one under the prefix: what a client can act on.
        stack.push({ value: child, depth, path: item.path === prefix ? join(prefix, String(key)) : item.path });
      }
    }
  }
  return undefined;
}

const join = (prefix: string, key: string) => (prefix === '' ? key : `${prefix}.${key}`);

/**
 * The path of a key that would reach an object's prototype (`__proto__`, or `constructor`
 * holding a `prototype`), at any depth, or undefined: what the API's JSON parser refuses, for
 * JSON parsed elsewhere (an import file's lines). Iterative, like tooDeep.
 */
export function prototypeKey(value: unknown, prefix = ''): string | undefined {
  const stack: { value: unknown; path: string }[] = [{ value, path: prefix }];
  while (stack.length > 0) {
    const item = stack.pop() as (typeof stack)[number];
    if (typeof item.value !== 'object' || item.value === null) continue;
    for (const [key, child] of Object.entries(item.value)) {
      const path = join(item.path, key);
      const poisons =
        key === '__proto__' ||
        (key === 'constructor' && typeof child === 'object' && child !== null && Object.hasOwn(child, 'prototype'));
      if (poisons) return path;
      stack.push({ value: child, path });
    }
  }
  return undefined;
}
