import t from 'tap';
import { createMemoryOpmlImportStore } from '../../src/adapters/memory-imports/opml-import-store.js';
import { opmlImportStoreContract } from './opml-imports.js';

// One process writes and reads in embedded mode: the same store is both.
opmlImportStoreContract(t, 'memory', async () => {
  const store = createMemoryOpmlImportStore();
  return { writer: store, reader: store, close: async () => undefined };
});
