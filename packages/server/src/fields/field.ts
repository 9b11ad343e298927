/**
 * What every resource's field list says of a field: how it is stored, who may set it, and (for
 * the compiler only) the type of its value. Each resource declares its fields once, in the order
 * the API returns them (fields/snapshot.ts, edge.ts, brain.ts, memory.ts); the model's types,
 * the stores' column lists, the export's column kinds and the update checks' allow-lists are
 * read from those declarations.
 */

/** How a value is kept in a column (the export and import read and write it by this). */
export type FieldKind = 'text' | 'number' | 'boolean' | 'json' | 'time';

/**
 * Who sets a field: `client` on create and update; `client on create` when it is made, read-only
 * after; `client on update` only through an update; `service` never the client (an update may
 * send it back unchanged).
 */
export type SetBy = 'client' | 'client on create' | 'client on update' | 'service';

export interface Field<Value = unknown, S extends SetBy = SetBy> {
  readonly kind: FieldKind;
  readonly setBy: S;
  /** Never present: carries the value's type to `RecordOf`. */
  readonly valueType?: Value;
}

/** A field of values of type `Value` that the client sets on create and update. */
export const byClient = <Value>(kind: FieldKind): Field<Value, 'client'> => ({ kind, setBy: 'client' });
/** A field the client sets when the record is made, read-only after. */
export const byClientOnCreate = <Value>(kind: FieldKind): Field<Value, 'client on create'> => ({
  kind,
  setBy: 'client on create',
});
/** A field the client sets only through an update. */
export const byClientOnUpdate = <Value>(kind: FieldKind): Field<Value, 'client on update'> => ({
  kind,
  setBy: 'client on update',
});
/** A field only the service sets. */
export const byService = <Value>(kind: FieldKind): Field<Value, 'service'> => ({ kind, setBy: 'service' });

export type Fields = Readonly<Record<string, Field>>;

/** The record a field list describes: each field with its value's type. */
export type RecordOf<F extends Fields> = { -readonly [K in keyof F]: F[K] extends Field<infer Value> ? Value : never };

/** The names of the fields of `F` whose setter is one of `S`. */
export type NamesSetBy<F extends Fields, S extends SetBy> = {
  [K in keyof F]: F[K] extends Field<unknown, infer Setter> ? (Setter extends S ? K & string : never) : never;
}[keyof F];

/** The names of the fields in `fields`, in their declared order (the order of the API's JSON). */
export function fieldNames<F extends Fields>(fields: F): readonly (keyof F & string)[] {
  return Object.keys(fields) as (keyof F & string)[];
}

/** The fields whose setter is one of `setBy`, in their declared order. */
export function fieldsSetBy<F extends Fields, S extends SetBy>(fields: F, ...setBy: S[]): readonly NamesSetBy<F, S>[] {
  return fieldNames(fields).filter((name) => (setBy as SetBy[]).includes(fields[name]!.setBy)) as NamesSetBy<F, S>[];
}

/** The fields an update may send only unchanged: set by the service, or by the client when created. */
export const readOnlyFields = <F extends Fields>(fields: F) => fieldsSetBy(fields, 'service', 'client on create');

/** The fields a client may set on create and update alike. */
export const editableFields = <F extends Fields>(fields: F) => fieldsSetBy(fields, 'client');

/** Each field's kind of column, by name. */
export function fieldKinds(fields: Fields): Record<string, FieldKind> {
  return Object.fromEntries(Object.entries(fields).map(([name, { kind }]) => [name, kind]));
}
