import type { Snapshot, SnapshotUpdate } from '@snapgraph/client';
import { h } from '../dom.js';
import { SNAPSHOT_TYPES } from '../graph/style.js';
import { fieldLabel, TEXT_FIELDS } from './panel-fields.js';

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

const UNIT_FIELDS = [
  ['confidence', 'Confidence'],
  ['significance_score', 'Significance'],
] as const;

export interface EditorHooks {
  save(update: SnapshotUpdate): void;
  /** Save pressed with every field as it was. */
  unchanged(): void;
  cancel(): void;
  fail(err: unknown): void;
}

/** The edit form of a snapshot: every editable field; only the changed ones are sent. */
export function snapshotEditor(snapshot: Snapshot, hooks: EditorHooks): HTMLFormElement {
  const record = snapshot as unknown as Record<string, unknown>;
  const inputs = new Map<string, Control>();
  const field = (key: string, label: string, control: Control) => {
    control.id = `edit-${key}`;
    inputs.set(key, control);
    return [h('label', { for: control.id }, label), control];
  };
  const text = (key: string) => h('textarea', { rows: '2', value: (record[key] as string | null) ?? '' });
  const typeSelect = h('select', {}, ...SNAPSHOT_TYPES.map((t) => h('option', { value: t }, t)));
  typeSelect.value = snapshot.type;
  const unit = (value: number) =>
    h('input', { type: 'number', min: '0', max: '1', step: '0.01', value: String(value) });
  const form = h(
    'form',
    { className: 'edit', 'aria-label': 'Edit snapshot' },
    ...field('name', 'Name', h('input', { type: 'text', required: true, value: snapshot.name })),
    ...field('core', 'Core', h('textarea', { rows: '3', required: true, value: snapshot.core })),
    ...field('type', 'Type', typeSelect),
    ...TEXT_FIELDS.flatMap((key) => field(key, fieldLabel(key), text(key))),
    ...field(
      'emotion',
      'Emotion (JSON object)',
      h('textarea', { rows: '2', value: record.emotion ? JSON.stringify(record.emotion) : '' }),
    ),
    ...field('confidence', 'Confidence (0 to 1)', unit(snapshot.confidence)),
    ...field('significance_score', 'Significance (0 to 1)', unit(snapshot.significance_score)),
    ...field('tags', 'Tags (comma separated)', h('input', { type: 'text', value: (snapshot.tags ?? []).join(', ') })),
    h(
      'div',
      { className: 'actions' },
      h('button', { type: 'submit', className: 'primary' }, 'Save'),
      h('button', { type: 'button', onClick: () => hooks.cancel() }, 'Cancel'),
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
      hooks.fail(new Error('Emotion must be a JSON object, e.g. {"primary": "joy", "intensity": 0.6}'));
      return;
    }
    for (const [key, label] of UNIT_FIELDS) {
      // An emptied field is not 0 (Number('') is): it is refused, never saved as something else.
      const text = value(key).trim();
      const next = Number(text);
      if (text === '' || !(next >= 0 && next <= 1)) {
        hooks.fail(new Error(`${label} must be a number from 0 to 1 (it is ${snapshot[key]}).`));
        return;
      }
      if (next !== snapshot[key]) update[key] = next;
    }
    const tags = value('tags')
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean);
    if (tags.join('\n') !== (snapshot.tags ?? []).join('\n')) update.tags = tags;
    // An empty update is the API's 400: nothing to send.
    if (Object.keys(update).length === 0) hooks.unchanged();
    else hooks.save(update as SnapshotUpdate);
  });
  return form;
}
