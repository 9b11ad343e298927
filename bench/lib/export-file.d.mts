/** Types of export-file.mjs, for the tests that import it. */
export declare const syntheticBrainId: string;
export declare function writeSyntheticExport(
  path: string,
  options: { snapshots: number },
): Promise<{ brain: number; snapshot: number; edge: number; tombstone: number }>;
