import { runOpmlImport, type OpmlImportDeps } from '../app/opml.js';
import type { JobHandler } from '../ports/scheduler.js';

/** The import job: `{ id: importId }` → the rest of its outlines imported, progress in the import store → done. */
export const importOpmlHandler =
  (deps: OpmlImportDeps): JobHandler =>
  async ({ id }) => {
    await runOpmlImport(deps, id);
    return null;
  };
