import { randomBytes } from 'node:crypto';
import type { Test } from 'tap';
import type { OpmlImport, OpmlOutcome } from '../../src/domain/opml.js';
import type { OpmlImportStore } from '../../src/ports/opml-import-store.js';

const newImport = (accountId = 'alice'): OpmlImport => ({
  id: `imp_${randomBytes(12).toString('base64url')}`,
  accountId,
  status: 'running',
  total: 2,
  done: 0,
  outcomes: [],
  startedAt: '2026-11-25T04:00:00.000Z',
  finishedAt: null,
});
const outcome = (n: number): OpmlOutcome => ({
  xml_url: `https://example.org/${n}.xml`,
  title: `Feed ${n}`,
  outcome: n === 2 ? 'failed' : 'created',
  feed_id: n === 2 ? null : `feed${n}`,
  bundle: n === 1 ? 'News' : null,
  error: n === 2 ? { code: 'source_unreachable', message: 'down' } : null,
});

/** The OPML import store's conformance suite: memory (embedded mode) and Redis (cluster mode). */
export function opmlImportStoreContract(
  t: Test,
  name: string,
  open: () => Promise<{ writer: OpmlImportStore; reader: OpmlImportStore; close: () => Promise<void> }>,
): void {
  t.test(`${name}: an import is read back with its outlines, progress and end`, async (t) => {
    const { writer, reader, close } = await open();
    t.teardown(close);
    const job = newImport();
    const entries = [
      { xmlUrl: 'https://example.org/1.xml', title: 'Feed 1', groups: ['News'] },
      { xmlUrl: 'https://example.org/2.xml', title: 'Feed 2', groups: [] },
    ];
    await writer.create(job, entries);
    t.same(await reader.get(job.id), job, 'as created');
    t.same(await reader.entries(job.id), entries);
    await writer.addOutcome(job.id, outcome(1));
    t.same((await reader.get(job.id))?.outcomes, [outcome(1)]);
    t.equal((await reader.get(job.id))?.done, 1);
    await writer.addOutcome(job.id, outcome(2));
    await writer.finish(job.id, '2026-11-25T04:01:00.000Z');
    t.same(await reader.get(job.id), {
      ...job,
      status: 'finished',
      done: 2,
      outcomes: [outcome(1), outcome(2)],
      finishedAt: '2026-11-25T04:01:00.000Z',
    });
  });

  t.test(`${name}: an unknown import is undefined`, async (t) => {
    const { reader, close } = await open();
    t.teardown(close);
    t.equal(await reader.get('imp_unknownunknownunkn'), undefined);
    t.equal(await reader.entries('imp_unknownunknownunkn'), undefined);
  });
}
