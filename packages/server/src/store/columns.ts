/** Column lists shared by both stores, in the order the API returns the fields (from fields/). */
import { EDGE_FIELDS } from '../fields/edge.js';
import { fieldNames } from '../fields/field.js';
import { MEMORY_FIELDS } from '../fields/memory.js';
import { SNAPSHOT_FIELDS } from '../fields/snapshot.js';

/** Snapshot columns in the order the API returns them; account_id stays inside the store. */
export const SNAPSHOT_COLUMNS = fieldNames(SNAPSHOT_FIELDS);

export const EDGE_COLUMNS = fieldNames(EDGE_FIELDS);

/** Memory columns in the order the API returns them; account_id stays inside the store. */
export const MEMORY_COLUMNS = fieldNames(MEMORY_FIELDS);
