import type { Snapshot } from '@snapgraph/client';
import { h } from '../dom.js';
import { evolvedFromChain } from '../graph/build.js';
import { nodeColour } from '../graph/style.js';
import { snapshotEditor } from './panel-edit.js';
import { renderFields } from './panel-fields.js';
import type { PanelActions } from './panel-actions-type.js';
import { edgeForm, loadSuggestions } from './panel-links.js';

export type { PanelActions } from './panel-actions-type.js';

/** The selected snapshot: its fields, edit and delete, its edges, neighbourhood, chain and suggestions. */
export class SnapshotPanel {
  /** A snapshot marked as the source of an edge to make with the next one selected. */
  private edgeSource = '';

  constructor(
    private readonly container: HTMLElement,
    private readonly actions: PanelActions,
  ) {}

  /** The empty state: what the panel is for, and how to fill it. */
  clear(signedIn = true): void {
    this.container.replaceChildren(
      h(
        'div',
        { className: 'empty-state' },
        h('strong', {}, 'No snapshot selected'),
        signedIn
          ? 'Click a node in the graph, or search and pick a result, to see it here.'
          : 'Sign in, then pick a node in the graph to see its fields, edges and suggestions here.',
      ),
    );
  }

  show(snapshot: Snapshot): void {
    const graph = this.actions.graph();
    const name = (id: string) => (graph?.hasNode(id) ? graph.getNodeAttribute(id, 'label') : id);
    const run = (work: () => Promise<unknown>) => this.run(work);

    const actions = h(
      'div',
      { className: 'actions' },
      h('button', { type: 'button', onClick: () => this.showEditor(snapshot) }, 'Edit'),
      h(
        'button',
        { type: 'button', onClick: () => run(() => this.actions.expand(snapshot.id)) },
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
      h('button', { type: 'button', className: 'danger', onClick: () => this.confirmDelete(snapshot) }, 'Delete'),
    );

    const sections: (Node | false)[] = [
      h(
        'div',
        { className: 'panel-head' },
        h(
          'span',
          { className: 'type-chip' },
          h('span', { className: 'swatch', style: { background: nodeColour(snapshot.type) }, 'aria-hidden': 'true' }),
          snapshot.type,
        ),
        h('h2', { id: 'panel-title' }, snapshot.name),
        h('p', { className: 'core', 'data-field': 'core' }, snapshot.core),
      ),
      actions,
      h('div', { id: 'panel-confirm' }),
      this.edgeSource !== '' &&
        this.edgeSource !== snapshot.id &&
        edgeForm(this.edgeSource, snapshot.id, name, this.actions, run, () => (this.edgeSource = '')),
      ...renderFields(snapshot),
    ];

    if (graph?.hasNode(snapshot.id)) {
      const edgeItem = (edge: string, other: string, arrow: string) => {
        const attributes = graph.getEdgeAttributes(edge);
        return h(
          'li',
          { 'data-edge-id': edge },
          `${arrow} `,
          h('span', { className: `edge-type ${attributes.edgeType}` }, attributes.edgeType),
          ` (${attributes.strength.toFixed(2)}${attributes.origin === 'auto' ? ', auto' : ''}) `,
          h(
            'button',
            { type: 'button', className: 'link-button', onClick: () => this.actions.select(other) },
            name(other),
          ),
          h(
            'button',
            {
              type: 'button',
              className: 'link-button subtle',
              'aria-label': `Delete edge ${attributes.edgeType} with ${name(other)}`,
              onClick: () => run(() => this.actions.deleteEdge(edge)),
            },
            'delete',
          ),
        );
      };
      const outgoing = graph.outEdges(snapshot.id).map((edge) => edgeItem(edge, graph.target(edge), '→'));
      const incoming = graph.inEdges(snapshot.id).map((edge) => edgeItem(edge, graph.source(edge), '←'));
      const none = (text: string) => h('li', { className: 'muted' }, text);
      sections.push(
        h('h3', {}, `Edges out (${outgoing.length})`),
        h('ul', { className: 'edges', 'aria-label': 'Edges out' }, ...(outgoing.length ? outgoing : [none('None.')])),
        h('h3', {}, `Edges in (${incoming.length})`),
        h('ul', { className: 'edges', 'aria-label': 'Edges in' }, ...(incoming.length ? incoming : [none('None.')])),
      );
      const chain = evolvedFromChain(graph, snapshot.id);
      if (chain.length > 0) {
        const link = (id: string) =>
          h('button', { type: 'button', className: 'link-button', onClick: () => this.actions.select(id) }, name(id));
        sections.push(
          h('h3', {}, 'Evolved from'),
          h(
            'ol',
            { className: 'edges', 'aria-label': 'Evolved from chain' },
            ...chain.map((id) => h('li', {}, link(id))),
          ),
        );
      }
    }

    const suggestionList = h('ul', { className: 'edges', 'aria-label': 'Suggestions' });
    sections.push(
      h('h3', {}, 'Suggested edges'),
      h(
        'div',
        {},
        h(
          'button',
          { type: 'button', onClick: () => loadSuggestions(snapshot.id, suggestionList, name, this.actions, run) },
          'Show suggestions',
        ),
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

  private confirmDelete(snapshot: Snapshot): void {
    const box = this.container.querySelector('#panel-confirm');
    if (!box) return;
    const no = h('button', { type: 'button', onClick: () => box.replaceChildren() }, 'Keep it');
    box.replaceChildren(
      h(
        'div',
        { role: 'alertdialog', 'aria-label': 'Confirm delete', className: 'confirm' },
        `Delete “${snapshot.name}” and its edges for good? This cannot be undone.`,
        h(
          'button',
          { type: 'button', className: 'danger', onClick: () => this.run(() => this.actions.remove(snapshot.id)) },
          'Yes, delete',
        ),
        no,
      ),
    );
    no.focus();
  }

  private showEditor(snapshot: Snapshot): void {
    const form = snapshotEditor(snapshot, {
      save: (update) => void this.run(() => this.actions.save(snapshot.id, update)),
      unchanged: () => {
        this.actions.tell('Nothing changed.');
        this.show(snapshot);
      },
      cancel: () => this.show(snapshot),
      fail: (err) => this.actions.fail(err),
    });
    this.container.replaceChildren(h('h2', {}, `Edit: ${snapshot.name}`), form);
    form.querySelector<HTMLElement>('#edit-name')?.focus();
  }
}
