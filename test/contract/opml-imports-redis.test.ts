import t from 'tap';
import { createImportRedis, createRedisOpmlImportStore } from '../../src/adapters/redis-imports/opml-import-store.js';
import { opmlImportStoreContract } from './opml-imports.js';
import { requireRedis } from './redis-test-options.js';

const url = await requireRedis();

// A worker writes and an API replica reads, each on its own connection to a real Redis.
opmlImportStoreContract(t, 'redis', async () => {
  const writerRedis = createImportRedis(url, () => undefined);
  const readerRedis = createImportRedis(url, () => undefined);
  return {
    writer: createRedisOpmlImportStore(writerRedis),
    reader: createRedisOpmlImportStore(readerRedis),
    close: async () => {
      writerRedis.disconnect();
      readerRedis.disconnect();
    },
  };
});
