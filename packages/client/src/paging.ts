/**
 * Pages as async iterators. Lists that take `cursor` are walked by keyset (an empty cursor asks
 * for the first page and `next_cursor` for the rest), which costs the same at any depth and
 * neither skips nor repeats an item when others are written meanwhile. Lists without it are
 * walked by offset.
 */
export interface CursorPage<T> {
  data: T[];
  next_cursor?: string | null;
}

export async function* cursorPages<P extends CursorPage<unknown>>(
  fetchPage: (cursor: string) => Promise<P>,
): AsyncGenerator<P, void, undefined> {
  let cursor = '';
  for (;;) {
    const page = await fetchPage(cursor);
    yield page;
    if (typeof page.next_cursor !== 'string' || page.next_cursor === '' || page.data.length === 0) return;
    cursor = page.next_cursor;
  }
}

export interface CountedPage<T> {
  data: T[];
  count: number;
}

/**
 * Pages by offset until the last, or until `maxOffset`, the deepest offset the list takes
 * (search reaches its first 10,000 results: its offset goes to 9,900).
 */
export async function* offsetPages<P extends CountedPage<unknown>>(
  fetchPage: (offset: number) => Promise<P>,
  start = 0,
  maxOffset = Number.MAX_SAFE_INTEGER,
): AsyncGenerator<P, void, undefined> {
  let offset = start;
  for (;;) {
    const page = await fetchPage(offset);
    yield page;
    offset += page.data.length;
    if (page.data.length === 0 || offset >= page.count || offset > maxOffset) return;
  }
}

/** The items of every page, one by one. */
export async function* items<T>(pages: AsyncIterable<{ data: T[] }>): AsyncGenerator<T, void, undefined> {
  for await (const page of pages) yield* page.data;
}
