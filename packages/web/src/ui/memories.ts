import type { Memory, SnapgraphClient } from '@snapgraph/client';
import { h } from '../dom.js';

/**
 * The memories view (design §17): a brain's memories as a timeline by `occurred_at`, grouped by
 * session, searchable (each hit with the turns around it, the API's `context`), and a memory that
 * a later one replaced (`superseded_by`) struck through, linked to its replacement.
 */

/** Memories read for the timeline: the newest this many, shown oldest first. */
export const TIMELINE_LIMIT = 100;
const CONTEXT = 2;

/** `superseded_by` comes with design §6.1's API; a server without it sends no such field. */
type ShownMemory = Memory & { superseded_by?: string | null; context?: Memory[] };

export interface MemoriesView {
  /** Reads the brain's memories again (a brain switch, a change). */
  load(brainId: string, total: number): Promise<void>;
  search(query: string): Promise<void>;
  clear(): void;
}

export function memoriesView(
  root: HTMLElement,
  client: () => SnapgraphClient,
  say: (text: string, isError?: boolean) => void,
): MemoriesView {
  const status = h('p', { className: 'muted', role: 'status', id: 'memories-status' });
  const input = h('input', {
    id: 'memories-search-input',
    type: 'search',
    // Not "Search": the page's snapshot search keeps that name to itself.
    placeholder: 'Find in memories',
    'aria-label': 'Find in memories',
  }) as HTMLInputElement;
  const form = h(
    'form',
    { id: 'memories-search', className: 'search' },
    input,
    h('button', { type: 'submit' }, 'Find'),
  );
  const list = h('div', { id: 'memories-list', className: 'memories-list' });
  root.replaceChildren(h('h3', { id: 'memories-title' }, 'Memories'), form, status, list);
  let brain = '';
  let total = 0;

  const showTimeline = async () => {
    status.textContent = 'Loading memories…';
    const page = await client().memories.list({ brain_id: brain, limit: TIMELINE_LIMIT });
    total = page.count;
    root.dataset.memories = String(page.count);
    if (page.count === 0) {
      status.textContent =
        'No memories in this brain yet. Add them with POST /v1/memories, or from a terminal: npx snapgraph memories add "…"';
      list.replaceChildren();
      return;
    }
    const shown = page.data.length < page.count ? ` (the newest ${page.data.length})` : '';
    status.textContent = `${page.count} memor${page.count === 1 ? 'y' : 'ies'}${shown}, oldest first, by session.`;
    list.replaceChildren(...timeline(page.data as ShownMemory[]));
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void view.search(input.value);
  });

  const view: MemoriesView = {
    async load(brainId, count) {
      brain = brainId;
      total = count;
      input.value = '';
      try {
        await showTimeline();
      } catch (err) {
        status.textContent = '';
        say(String((err as Error).message ?? err), true);
      }
    },
    async search(query) {
      input.value = query;
      if (!query.trim()) return showTimeline();
      status.textContent = 'Searching memories…';
      try {
        const found = await client().memories.search({ query, brain_id: brain, context: CONTEXT, limit: 20 });
        root.dataset.hits = String(found.data.length);
        status.textContent =
          found.data.length === 0
            ? `No memory matches “${query}” among ${total}.`
            : `${found.data.length} memor${found.data.length === 1 ? 'y' : 'ies'} for “${query}”, with the turns around each.`;
        list.replaceChildren(
          ...found.data.map((hit) => {
            const around = (hit as ShownMemory).context ?? [];
            const before = around.filter((m) => m.occurred_at <= hit.occurred_at && m.id !== hit.id);
            const after = around.filter((m) => m.occurred_at > hit.occurred_at);
            return h(
              'ol',
              { className: 'memory-hit' },
              ...before.map((m) => item(m as ShownMemory, 'context')),
              item(hit as ShownMemory, 'hit'),
              ...after.map((m) => item(m as ShownMemory, 'context')),
            );
          }),
        );
      } catch (err) {
        status.textContent = '';
        say(String((err as Error).message ?? err), true);
      }
    },
    clear() {
      brain = '';
      input.value = '';
      status.textContent = '';
      list.replaceChildren();
    },
  };
  return view;
}

/** Sessions in the order they began, each one's memories oldest first; memories without one last. */
function timeline(memories: ShownMemory[]): HTMLElement[] {
  const byOccurrence = [...memories].sort(
    (a, b) => a.occurred_at.localeCompare(b.occurred_at) || a.id.localeCompare(b.id),
  );
  const sessions = new Map<string, ShownMemory[]>();
  for (const memory of byOccurrence) {
    const key = memory.session_id ?? '';
    sessions.set(key, [...(sessions.get(key) ?? []), memory]);
  }
  const ordered = [...sessions.entries()].sort(([a], [b]) => Number(a === '') - Number(b === ''));
  return ordered.map(([session, items]) =>
    h(
      'section',
      { className: 'memory-session', 'data-session': session },
      h('h4', {}, session === '' ? 'Without a session' : `Session ${session}`),
      h('ol', {}, ...items.map((memory) => item(memory, 'timeline'))),
    ),
  );
}

function item(memory: ShownMemory, role: 'timeline' | 'hit' | 'context'): HTMLElement {
  const replaced = memory.superseded_by ?? null;
  return h(
    'li',
    {
      id: role === 'context' ? undefined : `memory-${memory.id}`,
      className: `memory ${role}${replaced ? ' superseded' : ''}`,
      'data-memory-id': memory.id,
    },
    h('time', { datetime: memory.occurred_at }, when(memory.occurred_at)),
    memory.speaker && h('strong', {}, `${memory.speaker}: `),
    h(replaced ? 's' : 'span', { className: 'content' }, memory.content),
    replaced &&
      h(
        'a',
        { className: 'replaced-by', href: `#memory-${replaced}`, onClick: (event: Event) => flash(event, replaced) },
        'replaced by a newer memory',
      ),
  );
}

/** The replacement brought into view and marked a moment (it may be elsewhere in the list). */
function flash(event: Event, id: string): void {
  const target = document.getElementById(`memory-${id}`);
  if (!target) return;
  event.preventDefault();
  target.scrollIntoView({ block: 'nearest' });
  target.classList.add('flash');
  setTimeout(() => target.classList.remove('flash'), 1500);
}

const when = (iso: string) => iso.slice(0, 16).replace('T', ' ');
