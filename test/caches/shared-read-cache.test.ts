import t from 'tap';
import { createLru } from '../../src/caches/lru.js';
import { createSharedReadCache } from '../../src/caches/shared-read-cache.js';
import { sharedKeyStore } from '../../src/caches/shared-key-store.js';
import type { ApiKey } from '../../src/domain/api-key.js';
import type { ChangeBus, ChangeNotice } from '../../src/ports/change-bus.js';
import type { KeyStore } from '../../src/ports/key-store.js';

/** An in-process bus whose liveness a test switches, standing in for Redis pub/sub. */
function fakeBus(): ChangeBus & { live: boolean; tell(notice: ChangeNotice): void; published: unknown[] } {
  const listeners = new Set<(notice: ChangeNotice) => void>();
  const bus = {
    live: true,
    published: [] as unknown[],
    tell: (notice: ChangeNotice) => listeners.forEach((listener) => listener(notice)),
    async publish(changes: { feeds?: readonly string[]; keys?: readonly string[] }) {
      bus.published.push(changes);
    },
    subscribe(listener: (notice: ChangeNotice) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {},
  };
  return bus;
}

const key = (revokedAt: string | null): ApiKey => ({
  id: 'key_1',
  accountId: 'a',
  scopes: ['read'],
  secretHash: 'h',
  createdAt: '2026-01-01T00:00:00Z',
  revokedAt,
  lastUsedAt: null,
});

/** A key store whose record the test changes behind the cache's back, counting reads. */
function countingStore(): KeyStore & { record: ApiKey | undefined; reads: number } {
  const store = {
    record: key(null) as ApiKey | undefined,
    reads: 0,
    insert: async () => undefined,
    get: async () => {
      store.reads++;
      return store.record;
    },
    list: async () => [],
    revoke: async () => true,
    touch: async () => undefined,
  };
  return store;
}

let now = 0;
const clock = { now: () => new Date(now) };

t.test('a key is read once, then kept until a notice names it', async (t) => {
  const bus = fakeBus();
  const store = countingStore();
  const keys = sharedKeyStore(store, bus, clock, {});
  await keys.get('key_1');
  await keys.get('key_1');
  t.equal(store.reads, 1);
  store.record = key('2026-01-02T00:00:00Z');
  bus.tell({ feeds: [], keys: ['key_1'], fetchStates: [] });
  t.equal((await keys.get('key_1'))?.revokedAt, '2026-01-02T00:00:00Z', 'the revocation is seen at once');
  t.equal(store.reads, 2);
});

t.test('nothing is kept while the bus is not live, and "everything" drops all', async (t) => {
  const bus = fakeBus();
  const store = countingStore();
  const keys = sharedKeyStore(store, bus, clock, {});
  bus.live = false;
  await keys.get('key_1');
  await keys.get('key_1');
  t.equal(store.reads, 2, 'read from the store each time');
  bus.live = true;
  await keys.get('key_1');
  bus.tell('everything');
  await keys.get('key_1');
  t.equal(store.reads, 4);
});

t.test('a read overtaken by a notice is not kept, unknown keys are never kept, and entries age out', async (t) => {
  const bus = fakeBus();
  const store = countingStore();
  const keys = sharedKeyStore(store, bus, clock, { maxAgeMs: 1000 });
  // The notice arrives while the first read is on its way back from the store.
  const overtaken = sharedKeyStore(
    {
      ...store,
      get: async () => {
        store.reads++;
        bus.tell({ feeds: [], keys: ['key_1'], fetchStates: [] });
        return store.record;
      },
    },
    bus,
    clock,
    { maxAgeMs: 1000 },
  );
  await overtaken.get('key_1');
  await overtaken.get('key_1');
  t.equal(store.reads, 2, 'the overtaken read was not kept');
  await keys.get('key_1');
  await keys.get('key_1');
  t.equal(store.reads, 3);
  now += 1000;
  await keys.get('key_1');
  t.equal(store.reads, 4, 'read again once older than maxAgeMs');
  store.record = undefined;
  await keys.get('key_2');
  await keys.get('key_2');
  t.equal(store.reads, 6);
});

t.test('a revocation made here drops the key here and is announced', async (t) => {
  const bus = fakeBus();
  const store = countingStore();
  const keys = sharedKeyStore(store, bus, clock, {});
  await keys.get('key_1');
  store.record = key('2026-01-02T00:00:00Z');
  await keys.revoke('key_1', '2026-01-02T00:00:00Z');
  t.same(bus.published, [{ keys: ['key_1'] }]);
  t.equal((await keys.get('key_1'))?.revokedAt, '2026-01-02T00:00:00Z');
});

t.test('the LRU forgets the least recently used entry past its entry or byte bound', async (t) => {
  const lru = createLru<string>({ maxEntries: 2, maxBytes: 10, sizeOf: (value) => value.length });
  lru.set('a', 'aaa');
  lru.set('b', 'bbb');
  lru.get('a');
  lru.set('c', 'ccc');
  t.same([lru.get('a'), lru.get('b'), lru.get('c')], ['aaa', undefined, 'ccc'], 'b was least recently used');
  lru.set('d', 'dddddddd');
  t.same([lru.get('a'), lru.get('c'), lru.get('d')], [undefined, undefined, 'dddddddd'], 'bytes bound');
  t.equal(lru.bytes, 8);
  lru.set('e', 'x'.repeat(11));
  t.equal(lru.get('e'), undefined, 'a value over the whole budget is not kept');
});

/** A key store whose reads wait until the test lets them answer, counting them. */
function gatedStore(): KeyStore & { reads: number; open(): void } {
  let gate!: () => void;
  const opened = new Promise<void>((resolve) => (gate = resolve));
  const store = {
    reads: 0,
    open: () => gate(),
    insert: async () => undefined,
    get: async () => {
      store.reads++;
      await opened;
      return key(null);
    },
    list: async () => [],
    revoke: async () => true,
    touch: async () => undefined,
  };
  return store;
}

t.test('readers of one record at once wait for one load, and it is kept', async (t) => {
  const store = gatedStore();
  const keys = sharedKeyStore(store, fakeBus(), clock, {});
  const reads = Array.from({ length: 50 }, () => keys.get('key_1'));
  store.open();
  const found = await Promise.all(reads);
  t.equal(store.reads, 1, 'fifty readers, one store read');
  t.ok(found.every((value) => value?.id === 'key_1'));
  await keys.get('key_1');
  t.equal(store.reads, 1, 'kept afterwards');
});

t.test('a reader after a notice naming the record does not join the load it overtook', async (t) => {
  const bus = fakeBus();
  const store = gatedStore();
  const keys = sharedKeyStore(store, bus, clock, {});
  const first = keys.get('key_1');
  bus.tell({ feeds: [], keys: ['key_1'], fetchStates: [] });
  const second = keys.get('key_1');
  t.equal(store.reads, 2, 'the second reader loads afresh');
  store.open();
  await Promise.all([first, second]);
  await keys.get('key_1');
  t.equal(store.reads, 2, 'the load that began after the notice is kept');
});

t.test('a notice naming another record does not stop a load from being kept', async (t) => {
  const bus = fakeBus();
  const store = gatedStore();
  const keys = sharedKeyStore(store, bus, clock, {});
  const first = keys.get('key_1');
  bus.tell({ feeds: ['some-feed'], keys: ['key_9'], fetchStates: [] });
  store.open();
  await first;
  await keys.get('key_1');
  t.equal(store.reads, 1);
});

t.test('an update takes a change into every view in place, overtakes loads in flight, and drops what cannot take it', async (t) => {
  const cache = createSharedReadCache<string>(fakeBus(), 'feeds', clock);
  let loads = 0;
  const load = (value: string) => async (): Promise<string> => {
    loads++;
    return value;
  };
  const keep = (): boolean => true;
  await cache.read('f1', 'a', load('a1'), keep);
  await cache.read('f1', 'b', load('b1'), keep);
  cache.update('f1', (value) => `${value}+`);
  t.same([await cache.read('f1', 'a', load('no'), keep), await cache.read('f1', 'b', load('no'), keep)], ['a1+', 'b1+']);
  t.equal(loads, 2, 'both views changed in memory');

  let answer!: (value: string) => void;
  const inFlight = cache.read('f2', 'a', () => new Promise<string>((resolve) => (answer = resolve)), keep);
  cache.update('f2', (value) => `${value}+`);
  answer('old');
  t.equal(await inFlight, 'old');
  t.equal(await cache.read('f2', 'a', load('fresh'), keep), 'fresh', 'the load the update overtook was not kept');

  cache.update('f1', (value) => (value === 'b1+' ? undefined : value));
  t.equal(await cache.read('f1', 'a', load('a2'), keep), 'a2', 'a view that cannot take the change drops the whole record');
});
