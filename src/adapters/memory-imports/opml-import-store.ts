import type { OpmlEntry, OpmlImport } from '../../domain/opml.js';
import { keptImportSeconds, type OpmlImportStore } from '../../ports/opml-import-store.js';

/** Bounds the memory imports may take: the newest this many are kept. */
const keptImports = 200;

/** Embedded mode: one process starts, runs and reports every import, so memory is where they are. */
export function createMemoryOpmlImportStore(now: () => Date = () => new Date()): OpmlImportStore {
  const imports = new Map<string, { job: OpmlImport; entries: OpmlEntry[]; expiresAt: number }>();
  const live = (id: string) => {
    const kept = imports.get(id);
    if (kept && kept.expiresAt <= now().getTime()) imports.delete(id);
    return imports.get(id);
  };
  const copy = (job: OpmlImport): OpmlImport => ({ ...job, outcomes: job.outcomes.map((outcome) => ({ ...outcome })) });
  return {
    async create(job, entries) {
      imports.set(job.id, { job: copy(job), entries: [...entries], expiresAt: now().getTime() + keptImportSeconds * 1000 });
      for (const oldest of imports.keys()) if (imports.size > keptImports) imports.delete(oldest);
    },
    async get(id) {
      const kept = live(id);
      return kept && copy(kept.job);
    },
    async entries(id) {
      return live(id)?.entries;
    },
    async addOutcome(id, outcome) {
      const kept = live(id);
      if (!kept) return;
      kept.job.outcomes.push({ ...outcome });
      kept.job.done = kept.job.outcomes.length;
    },
    async finish(id, at) {
      const kept = live(id);
      if (kept) Object.assign(kept.job, { status: 'finished', finishedAt: at });
    },
  };
}
