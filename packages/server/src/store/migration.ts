/** One versioned schema change. Versions only grow; an applied migration is never edited. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
