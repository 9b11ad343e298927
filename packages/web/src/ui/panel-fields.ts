import type { Snapshot } from '@snapgraph/client';
import { h } from '../dom.js';

/**
 * A snapshot's fields as the panel lists them: the ones with a value, in words a person reads
 * (emotion as words, scores as meters, dates in the reader's locale, tags as chips, ids that
 * wrap and copy); the empty ones folded behind "Show all fields".
 */

export const TEXT_FIELDS = [
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
] as const satisfies readonly (keyof Snapshot)[];

/** Shown in the panel's heading (panel.ts), above the fields list. */
type HeadingField = 'name' | 'core' | 'type';

/**
 * The order the panel lists a snapshot's other fields in (free text first, the service's last).
 * With the heading's it names every field of the API's Snapshot (the client's type, generated
 * from the server's declared list): the check below fails the type check when the server adds
 * one the panel lacks.
 */
const FIELD_ORDER = [
  ...TEXT_FIELDS,
  'emotion',
  'confidence',
  'significance_score',
  'tags',
  'id',
  'brain_id',
  'source_type',
  'source_id',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof Snapshot)[];

/** Compiles only when the heading and FIELD_ORDER name every field of Snapshot. */
export const PANEL_SHOWS_EVERY_FIELD: Exclude<keyof Snapshot, HeadingField | (typeof FIELD_ORDER)[number]> extends never
  ? true
  : never = true;

const LABELS: Record<string, string> = {
  one_liner: 'One-liner',
  trigger_pattern: 'Trigger',
  break_test: 'Break test',
  significance_score: 'Significance',
  brain_id: 'Brain',
  source_type: 'Source type',
  source_id: 'Source id',
  created_at: 'Created',
  updated_at: 'Updated',
  id: 'Id',
};

export const fieldLabel = (field: string): string =>
  LABELS[field] ?? field.charAt(0).toUpperCase() + field.slice(1).replace(/_/g, ' ');

export function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

const INTENSITY = (n: number) => (n >= 0.67 ? 'strong' : n >= 0.34 ? 'moderate' : 'mild');
const VALENCE = (n: number) => (n > 0.15 ? 'positive' : n < -0.15 ? 'negative' : 'neutral');
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Emotion is a free-form JSON object; the usual keys become a phrase ("Joy, strong (0.8),
 * positive"), any other key is listed as "key value". Never raw JSON.
 */
export function emotionInWords(emotion: unknown): string {
  if (typeof emotion !== 'object' || emotion === null) return String(emotion);
  const parts: string[] = [];
  const rest: string[] = [];
  for (const [key, value] of Object.entries(emotion as Record<string, unknown>)) {
    const name = key.replace(/_/g, ' ');
    if (['primary', 'emotion', 'label', 'name', 'feeling'].includes(key) && typeof value === 'string') {
      parts.unshift(capital(value));
    } else if (key === 'secondary' && typeof value === 'string') parts.push(`with ${value}`);
    else if (key === 'intensity' && typeof value === 'number') parts.push(`${INTENSITY(value)} (${value})`);
    else if (key === 'valence' && typeof value === 'number') parts.push(VALENCE(value));
    else if (Array.isArray(value)) rest.push(`${name} ${value.map(String).join(', ')}`);
    else if (typeof value === 'object' && value !== null) rest.push(`${name} ${emotionInWords(value)}`);
    else rest.push(`${name} ${String(value)}`);
  }
  return [...parts, ...rest].join(', ');
}

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** An id in monospace that wraps anywhere, with a button that copies it. */
export function copyableId(id: string): HTMLElement {
  const button = h('button', { type: 'button', className: 'quiet', 'aria-label': `Copy ${id}` }, 'Copy');
  button.addEventListener('click', () => {
    void navigator.clipboard?.writeText(id).then(
      () => (button.textContent = 'Copied'),
      () => (button.textContent = 'Select and copy'),
    );
  });
  return h('span', { className: 'id' }, h('code', {}, id), button);
}

function meter(value: number): HTMLElement {
  const share = Math.max(0, Math.min(1, value));
  return h(
    'span',
    {},
    h('span', { className: 'meter', 'aria-hidden': 'true' }, h('span', { style: { width: `${share * 100}%` } })),
    value.toFixed(2),
  );
}

function valueOf(field: string, value: unknown): Node | string {
  if (isEmpty(value)) return '—';
  if (field === 'emotion') return emotionInWords(value);
  if (field === 'confidence' || field === 'significance_score') return meter(Number(value));
  if (field === 'tags')
    return h('span', { className: 'tags' }, ...(value as string[]).map((t) => h('span', { className: 'tag' }, t)));
  if (field === 'id' || field === 'brain_id' || field === 'source_id') return copyableId(String(value));
  if (field === 'created_at' || field === 'updated_at') return formatDate(String(value));
  return String(value);
}

/**
 * The fields list: each field a <dt>/<dd> pair whose <dd> carries `data-field`; an empty one is
 * `hidden` until "Show all fields" is pressed.
 */
export function renderFields(snapshot: Snapshot): HTMLElement[] {
  const record = snapshot as unknown as Record<string, unknown>;
  const list = h('dl', { className: 'fields' });
  let empty = 0;
  for (const field of FIELD_ORDER) {
    const value = record[field];
    const folded = isEmpty(value);
    if (folded) empty++;
    const title = field === 'created_at' || field === 'updated_at' ? String(value) : undefined;
    list.append(
      h('dt', { hidden: folded }, fieldLabel(field)),
      h('dd', { 'data-field': field, className: folded ? 'empty' : '', hidden: folded, title }, valueOf(field, value)),
    );
  }
  if (empty === 0) return [list];
  const toggle = h(
    'button',
    { type: 'button', className: 'link-button', 'aria-expanded': 'false' },
    `Show all fields (${empty} empty)`,
  );
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    toggle.textContent = open ? 'Hide empty fields' : `Show all fields (${empty} empty)`;
    for (const element of list.querySelectorAll<HTMLElement>('.empty')) {
      element.hidden = !open;
      (element.previousElementSibling as HTMLElement).hidden = !open;
    }
  });
  return [list, toggle];
}
