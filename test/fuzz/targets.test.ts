import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { FeedmillError } from '../../src/domain/errors.js';
import { committedSeeds, fuzzDirectory, loadDictionary, loadTarget, parseDictionary, targetNames } from './corpus.js';
import { inputBytes, maxInputBytes } from './inputs.js';
import { allowedCpuMs, callParser, checkFeed, checkPrototypes, Finding } from './safety.js';

// This file runs beside the rest of the suite, as loaded as CI's fuzz pass, so it takes that pass's slack.
process.env['FEEDMILL_FUZZ_TIME_SLACK'] ??= '2';

// Every target runs over its committed seeds (hand-written ones and past findings' inputs), so
// neither a target nor a fixed finding can rot unnoticed between fuzzing runs.
for (const name of targetNames()) {
  t.test(`fuzz target ${name} accepts its committed seeds`, async (t) => {
    const target = await loadTarget(name);
    const seeds = committedSeeds(name);
    t.ok(seeds.length > 0, `test/fuzz/seeds/${name}/ holds seeds`);
    for (const seed of seeds) t.doesNotThrow(() => target.run(seed));
    t.ok(loadDictionary(target.dictionary).length > 0 || target.dictionary === undefined, 'its dictionary has tokens');
  });
}

t.test('every dictionary reads, escapes included', async (t) => {
  for (const file of readdirSync(join(fuzzDirectory, 'dictionaries')))
    t.doesNotThrow(() => loadDictionary(file.replace(/\.dict$/, '')), file);
  t.same(parseDictionary('# comment\n"a\\x41\\"b"\nname="\\\\"\n'), [Buffer.from('aA"b'), Buffer.from('\\')]);
  t.throws(() => parseDictionary('unquoted'), /Expected a dictionary entry/);
});

t.test('a repeat mutation never grows an input past the cap', async (t) => {
  const seeds = [Buffer.from('<item>')];
  const bytes = inputBytes(
    { kind: 'seed', seed: 0, mutations: Array.from({ length: 10 }, () => ({ kind: 'repeat' as const, at: 0, length: 6, times: 5000 })) },
    seeds,
    [],
  );
  t.equal(bytes.length, maxInputBytes);
});

interface CheckedItem {
  url: string;
  description_html: string;
  thumbnail: string | null;
  enclosures: { url: string }[];
}
const item: CheckedItem = {
  url: 'https://example.test/a',
  description_html: '<p><a href="https://example.test/b">b</a></p>',
  thumbnail: null,
  enclosures: [],
};
const feed = (changes: Partial<CheckedItem>) => ({ link: 'https://example.test/', icon: '', items: [{ ...item, ...changes }] });

/** The kind of Finding a call throws, 'other' for any other exception, 'none' when it returns. */
function findingOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return error instanceof Finding ? error.kind : 'other';
  }
  return 'none';
}
const unsafe = (t: Test, value: ReturnType<typeof feed>, why: string) =>
  t.equal(
    findingOf(() => checkFeed(value)),
    'unsafe-output',
    why,
  );

t.test('the safety check accepts a clean feed and rejects what could run script', async (t) => {
  t.doesNotThrow(() => checkFeed(feed({})), 'clean');
  t.doesNotThrow(
    () => checkFeed(feed({ description_html: '<a href="mailto:a@example.test">mail</a> javascript: as text' })),
    'mailto and text',
  );
  unsafe(t, feed({ url: 'javascript:alert(1)' }), 'a javascript: item URL');
  unsafe(t, feed({ thumbnail: 'data:image/svg+xml,<svg/>' }), 'a data: thumbnail');
  unsafe(t, feed({ enclosures: [{ url: '/relative.mp3' }] }), 'a relative enclosure');
  unsafe(t, feed({ description_html: '<a href="&#106;avascript:alert(1)">x</a>' }), 'an entity-spelled javascript: href');
  unsafe(t, feed({ description_html: '<img src="https://example.test/i.png" onerror="alert(1)">' }), 'an event handler');
  unsafe(t, feed({ description_html: '<p><script>alert(1)</script></p>' }), 'a script element');
  unsafe(t, feed({ description_html: '<svg><a xlink:href="javascript:alert(1)">x</a></svg>' }), 'an svg');
});

t.test('callParser tells a documented refusal from a crash, a slow call and pollution', async (t) => {
  t.equal(
    callParser(1, ['not_a_feed'], () => {
      throw new FeedmillError('not_a_feed', 'no');
    }),
    undefined,
    'refusal',
  );
  t.equal(
    findingOf(() =>
      callParser(1, ['not_a_feed'], () => {
        throw new FeedmillError('internal_error', 'x');
      }),
    ),
    'crash',
    'another code',
  );
  t.equal(
    findingOf(() =>
      callParser(1, ['not_a_feed'], () => {
        throw new TypeError('x');
      }),
    ),
    'crash',
    'a TypeError',
  );
  const spin = () => {
    const end = process.cpuUsage().user / 1000 + allowedCpuMs(10) + 20;
    while (process.cpuUsage().user / 1000 < end);
  };
  t.equal(
    findingOf(() => callParser(10, [], spin)),
    'slow',
    'past the CPU bound',
  );
  const prototype = Object.prototype as Record<string, unknown>;
  try {
    t.equal(
      findingOf(() =>
        callParser(1, [], () => {
          prototype['polluted'] = true;
        }),
      ),
      'pollution',
      'Object.prototype changed',
    );
  } finally {
    delete prototype['polluted'];
  }
  t.doesNotThrow(checkPrototypes, 'clean again');
});
