import { snapshotJsonArguments } from '../json-columns.js';

/** A snapshot row as the API's JSON object, built by SQLite (emotion and tags are JSON text). */
export const snapshotJson = `json_object(${snapshotJsonArguments((c) => (c === 'emotion' || c === 'tags' ? `json(${c})` : c))})`;
