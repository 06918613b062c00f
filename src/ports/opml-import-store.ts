import type { OpmlEntry, OpmlImport, OpmlOutcome } from '../domain/opml.js';

/**
 * OPML imports and their progress, where every API replica and worker reads them: in memory in
 * embedded mode (one process runs the import and answers for it), in Redis in cluster mode. An
 * import is kept for `keptImportSeconds` after it starts.
 */
export interface OpmlImportStore {
  /** Records a new import (status `running`, nothing done) with the outlines it is to import. */
  create(job: OpmlImport, entries: readonly OpmlEntry[]): Promise<void>;
  get(id: string): Promise<OpmlImport | undefined>;
  /** The outlines the import was started with; undefined once it has expired. */
  entries(id: string): Promise<OpmlEntry[] | undefined>;
  /** Appends the outcome of the next outline (`done` grows by one). */
  addOutcome(id: string, outcome: OpmlOutcome): Promise<void>;
  finish(id: string, at: string): Promise<void>;
}

/** How long an import's progress stays readable: a week. */
export const keptImportSeconds = 7 * 24 * 3600;
