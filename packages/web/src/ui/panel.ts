import type { Edge, Snapshot, SnapshotUpdate, Suggestion } from '@snapgraph/client';
import { h } from '../dom.js';
import { evolvedFromChain, type SnapGraph } from '../graph/build.js';
import { EDGE_TYPES, SNAPSHOT_TYPES } from '../graph/style.js';

/** What the side panel needs of the explorer; main.ts provides it. */
export interface PanelActions {
  graph(): SnapGraph | undefined;
  select(id: string): void;
  save(id: string, update: SnapshotUpdate): Promise<void>;
  remove(id: string): Promise<void>;
  expand(id: string): Promise<void>;
  suggestions(id: string): Promise<Suggestion[]>;
  createEdge(body: {
    source_id: string;
    target_id: string;
    edge_type: string;
    strength: number;
    label?: string;
  }): Promise<Edge>;
  deleteEdge(id: string): Promise<void>;
  /** Turns a suggestion down for good (made and deleted: the tombstone keeps it away). */
  rejectSuggestion(suggestion: Suggestion): Promise<void>;
  fail(err: unknown): void;
}

const TEXT_FIELDS = [
  'one_liner',
  'story',
  'moment',
  'source',
  'trigger_pattern',
  'method',
  'steps',
  'filter',
  'challenge',
  'break_test',
  'risks',
  'proof',
] as const;

const FIELD_ORDER = [
  'id',
  'type',
  'core',
  ...TEXT_FIELDS,
  'emotion',
  'confidence',
  'significance_score',
  'tags',
  'brain_id',
  'source_type',
  'source_id',
  'created_at',
  'updated_at',
] as const;

const show = (value: unknown): string => {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value)) return value.length ? value.join(', ') : '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
};

/** The selected snapshot: every field, edit and delete, its edges, neighbourhood, chain and suggestions. */
export class SnapshotPanel {
  /** A snapshot marked as the source of an edge to make with the next one selected. */
  private edgeSource = '';

  constructor(
    private readonly container: HTMLElement,
    private readonly actions: PanelActions,
  ) {}

  clear(): void {
    this.container.replaceChildren(
      h('p', { className: 'muted' }, 'Select a snapshot in the graph or in the search results.'),
    );
  }

  show(snapshot: Snapshot): void {
    const graph = this.actions.graph();
    const name = (id: string) => (graph?.hasNode(id) ? graph.getNodeAttribute(id, 'label') : id);
    const record = snapshot as unknown as Record<string, unknown>;

    const fields = h('dl', { className: 'fields' });
    for (const field of FIELD_ORDER)
      fields.append(h('dt', {}, field), h('dd', { 'data-field': field }, show(record[field])));

    const actions = h(
      'div',
      { className: 'actions' },
      h('button', { type: 'button', onClick: () => this.showEditor(snapshot) }, 'Edit'),
      h('button', { type: 'button', className: 'danger', onClick: () => this.confirmDelete(snapshot) }, 'Delete'),
      h(
        'button',
        { type: 'button', onClick: () => this.run(() => this.actions.expand(snapshot.id)) },
        'Expand neighbourhood',
      ),
      h(
        'button',
        {
          type: 'button',
          'aria-pressed': String(this.edgeSource === snapshot.id),
          onClick: () => {
            this.edgeSource = this.edgeSource === snapshot.id ? '' : snapshot.id;
            this.show(snapshot);
          },
        },
        this.edgeSource === snapshot.id ? 'Edge source (select another snapshot)' : 'Start an edge from here',
      ),
    );

    const sections: (Node | false)[] = [
      h('h2', { id: 'panel-title' }, snapshot.name),
      actions,
      h('div', { id: 'panel-confirm' }),
      this.edgeSource !== '' && this.edgeSource !== snapshot.id && this.edgeForm(this.edgeSource, snapshot.id, name),
      fields,
    ];

    if (graph?.hasNode(snapshot.id)) {
      const edgeItem = (edge: string, other: string, arrow: string) => {
        const attributes = graph.getEdgeAttributes(edge);
        return h(
          'li',
          { 'data-edge-id': edge },
          `${arrow} ${attributes.edgeType} (${attributes.strength.toFixed(2)}${attributes.origin === 'auto' ? ', auto' : ''}) `,
          h(
            'button',
            { type: 'button', className: 'link-button', onClick: () => this.actions.select(other) },
            name(other),
          ),
          ' ',
          h(
            'button',
            {
              type: 'button',
              className: 'link-button',
              'aria-label': `Delete edge ${attributes.edgeType} with ${name(other)}`,
              onClick: () => this.run(() => this.actions.deleteEdge(edge)),
            },
            'delete',
          ),
        );
      };
      const outgoing = graph.outEdges(snapshot.id).map((edge) => edgeItem(edge, graph.target(edge), '→'));
      const incoming = graph.inEdges(snapshot.id).map((edge) => edgeItem(edge, graph.source(edge), '←'));
      sections.push(
        h('h3', {}, `Edges out (${outgoing.length})`),
        h('ul', { className: 'edges', 'aria-label': 'Edges out' }, ...outgoing),
        h('h3', {}, `Edges in (${incoming.length})`),
        h('ul', { className: 'edges', 'aria-label': 'Edges in' }, ...incoming),
      );
      const chain = evolvedFromChain(graph, snapshot.id);
      if (chain.length > 0) {
        sections.push(
          h('h3', {}, 'Evolved from'),
          h(
            'ol',
            { className: 'edges', 'aria-label': 'Evolved from chain' },
            ...chain.map((id) =>
              h(
                'li',
                {},
                h(
                  'button',
                  { type: 'button', className: 'link-button', onClick: () => this.actions.select(id) },
                  name(id),
                ),
              ),
            ),
          ),
        );
      }
    }

    const suggestionList = h('ul', { className: 'edges', 'aria-label': 'Suggestions' });
    sections.push(
      h('h3', {}, 'Suggested edges'),
      h(
        'button',
        { type: 'button', onClick: () => this.loadSuggestions(snapshot.id, suggestionList, name) },
        'Show suggestions',
      ),
      suggestionList,
    );
    this.container.replaceChildren(...sections.filter((node): node is Node => node !== false));
  }

  private async run(work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (err) {
      this.actions.fail(err);
    }
  }

  private async loadSuggestions(id: string, list: HTMLElement, name: (id: string) => string): Promise<void> {
    list.replaceChildren(h('li', { className: 'muted' }, 'Loading…'));
    try {
      const suggestions = await this.actions.suggestions(id);
      if (suggestions.length === 0) list.replaceChildren(h('li', { className: 'muted' }, 'No suggestions.'));
      else
        list.replaceChildren(
          ...suggestions.map((suggestion) => {
            const other = suggestion.source_id === id ? suggestion.target_id : suggestion.source_id;
            const item: HTMLLIElement = h(
              'li',
              {},
              `${suggestion.edge_type} (${suggestion.strength.toFixed(2)}) ${name(other)} `,
              h(
                'button',
                {
                  type: 'button',
                  onClick: () =>
                    this.run(async () => {
                      await this.actions.createEdge({
                        source_id: suggestion.source_id,
                        target_id: suggestion.target_id,
                        edge_type: suggestion.edge_type,
                        strength: suggestion.strength,
                      });
                      item.remove();
                    }),
                },
                'Accept',
              ),
              ' ',
              h(
                'button',
                {
                  type: 'button',
                  // Named "dismiss" too: the word users of other graph tools look for.
                  'aria-label': 'Reject (dismiss for good)',
                  onClick: () =>
                    this.run(async () => {
                      await this.actions.rejectSuggestion(suggestion);
                      item.remove();
                    }),
                },
                'Reject',
              ),
            );
            return item;
          }),
        );
    } catch (err) {
      list.replaceChildren();
      this.actions.fail(err);
    }
  }

  private edgeForm(source: string, target: string, name: (id: string) => string): HTMLFormElement {
    const type = h('select', { id: 'new-edge-type' }, ...EDGE_TYPES.map((t) => h('option', { value: t }, t)));
    const strength = h('input', {
      id: 'new-edge-strength',
      type: 'number',
      min: '0',
      max: '1',
      step: '0.05',
      value: '0.5',
    });
    const label = h('input', { id: 'new-edge-label', type: 'text' });
    const form = h(
      'form',
      { className: 'edit', 'aria-label': 'New edge' },
      h('h3', {}, `New edge: ${name(source)} → this`),
      h('label', { for: 'new-edge-type' }, 'Edge type'),
      type,
      h('label', { for: 'new-edge-strength' }, 'Strength'),
      strength,
      h('label', { for: 'new-edge-label' }, 'Label'),
      label,
      h('div', { className: 'actions' }, h('button', { type: 'submit', className: 'primary' }, 'Create edge')),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.run(async () => {
        await this.actions.createEdge({
          source_id: source,
          target_id: target,
          edge_type: type.value,
          strength: Number(strength.value),
          ...(label.value.trim() ? { label: label.value.trim() } : {}),
        });
        this.edgeSource = '';
      });
    });
    return form;
  }

  private confirmDelete(snapshot: Snapshot): void {
    const box = this.container.querySelector('#panel-confirm');
    if (!box) return;
    const no = h('button', { type: 'button', onClick: () => box.replaceChildren() }, 'Keep it');
    box.replaceChildren(
      h(
        'div',
        { role: 'alertdialog', 'aria-label': 'Confirm delete', className: 'message error' },
        `Delete “${snapshot.name}” for good? This cannot be undone. `,
        h(
          'button',
          { type: 'button', className: 'danger', onClick: () => this.run(() => this.actions.remove(snapshot.id)) },
          'Yes, delete',
        ),
        ' ',
        no,
      ),
    );
    no.focus();
  }

  private showEditor(snapshot: Snapshot): void {
    const record = snapshot as unknown as Record<string, unknown>;
    const inputs = new Map<string, HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>();
    const field = (key: string, label: string, control: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement) => {
      control.id = `edit-${key}`;
      inputs.set(key, control);
      return [h('label', { for: control.id }, label), control];
    };
    const text = (key: string) => h('textarea', { rows: '2', value: (record[key] as string | null) ?? '' });
    const typeSelect = h('select', {}, ...SNAPSHOT_TYPES.map((t) => h('option', { value: t }, t)));
    typeSelect.value = snapshot.type;
    const form = h(
      'form',
      { className: 'edit', 'aria-label': 'Edit snapshot' },
      ...field('name', 'Name', h('input', { type: 'text', required: true, value: snapshot.name })),
      ...field('core', 'Core', h('textarea', { rows: '3', required: true, value: snapshot.core })),
      ...field('type', 'Type', typeSelect),
      ...TEXT_FIELDS.flatMap((key) => field(key, key.replace(/_/g, ' '), text(key))),
      ...field(
        'emotion',
        'Emotion (JSON object)',
        h('textarea', { rows: '2', value: record.emotion ? JSON.stringify(record.emotion) : '' }),
      ),
      ...field(
        'confidence',
        'Confidence (0 to 1)',
        h('input', { type: 'number', min: '0', max: '1', step: '0.01', value: String(snapshot.confidence) }),
      ),
      ...field(
        'significance_score',
        'Significance (0 to 1)',
        h('input', { type: 'number', min: '0', max: '1', step: '0.01', value: String(snapshot.significance_score) }),
      ),
      ...field('tags', 'Tags (comma separated)', h('input', { type: 'text', value: (snapshot.tags ?? []).join(', ') })),
      h(
        'div',
        { className: 'actions' },
        h('button', { type: 'submit', className: 'primary' }, 'Save'),
        h('button', { type: 'button', onClick: () => this.show(snapshot) }, 'Cancel'),
      ),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const update: Record<string, unknown> = {};
      const value = (key: string) => inputs.get(key)!.value;
      if (value('name') !== snapshot.name) update.name = value('name');
      if (value('core') !== snapshot.core) update.core = value('core');
      if (value('type') !== snapshot.type) update.type = value('type');
      for (const key of TEXT_FIELDS) {
        const next = value(key).trim() === '' ? null : value(key);
        if (next !== (record[key] ?? null)) update[key] = next;
      }
      try {
        const emotion = value('emotion').trim() === '' ? null : (JSON.parse(value('emotion')) as unknown);
        if (JSON.stringify(emotion) !== JSON.stringify(record.emotion ?? null)) update.emotion = emotion;
      } catch {
        this.actions.fail(new Error('Emotion must be a JSON object, e.g. {"primary": "joy", "intensity": 0.6}'));
        return;
      }
      for (const key of ['confidence', 'significance_score'] as const) {
        if (Number(value(key)) !== snapshot[key]) update[key] = Number(value(key));
      }
      const tags = value('tags')
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean);
      if (tags.join('\n') !== (snapshot.tags ?? []).join('\n')) update.tags = tags;
      void this.run(() => this.actions.save(snapshot.id, update as SnapshotUpdate));
    });
    this.container.replaceChildren(h('h2', {}, `Edit: ${snapshot.name}`), form);
    inputs.get('name')?.focus();
  }
}
