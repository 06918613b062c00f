import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from 'htmlparser2';
import t from 'tap';
import { ScanningTokenizer, replacesFastForward } from '../../workers/shared/scanning-tokenizer.js';
import { sharedCorpus } from '../fixtures/corpus.js';

type Options = { xmlMode: boolean; decodeEntities: boolean };
type TokenizerClass = typeof Tokenizer;

/** Every callback the tokenizer makes, with its arguments, in order: the tokens and their positions. */
function calls(Class: TokenizerClass, input: string, options: Options, chunk: number): string[] {
  const seen: string[] = [];
  const callbacks = new Proxy(
    {},
    {
      get:
        (_target, name) =>
        (...args: unknown[]) =>
          seen.push(`${String(name)}(${args.join(',')})`),
    },
  ) as ConstructorParameters<TokenizerClass>[1];
  const tokenizer = new Class(options, callbacks);
  for (let at = 0; at < input.length; at += chunk) tokenizer.write(input.slice(at, at + chunk));
  tokenizer.end();
  return seen;
}

/** The ends of the sections the replaced loop scans for, cut off and doubled, where an off-by-one would show. */
const edges = [
  'plain text with no tag',
  'text<a href="x">link</a>tail',
  '<![CDATA[raw <b>html</b>]]>',
  '<![CDATA[a]]]>b',
  '<![CDATA[never closed',
  '<![CDATA[]]>',
  '<!-- a comment -->x',
  '<!-- a --->',
  '<!-- never closed',
  '<a title="never closed',
  "<a title='single'>x</a>",
  '<a title="">x</a>',
  '</closing attr="x">after',
  '</closing',
  '<script>if (a < b) x = "</scr" + "ipt>";</script>after',
  '<style>p > a { }</style>',
  '<title>a &amp; b</title>',
  'a &amp; b &copy c &#x41;<b>&lt;</b>',
  '<',
  '',
];

const modes: { name: string; options: Options }[] = [
  { name: 'XML, entities undecoded (the feed reader)', options: { xmlMode: true, decodeEntities: false } },
  { name: 'HTML, entities undecoded (the sanitiser)', options: { xmlMode: false, decodeEntities: false } },
  { name: 'HTML, entities decoded (the page reader)', options: { xmlMode: false, decodeEntities: true } },
];

/** Source text with its comments and whitespace taken out: what the code does, not how it is laid out. */
function code(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '')
    .replace(/\s+/g, '');
}

/**
 * htmlparser2 12.0.0's private `Tokenizer#fastForwardTo`, which scanning-tokenizer.ts replaces: the
 * fields it reads and moves, and its answer at the end of a chunk, are the contract the replacement
 * keeps. Any change to it in a later htmlparser2 fails the test below, so the replacement is
 * re-read against the new code before the upgrade goes in.
 */
const upstreamFastForwardTo = `fastForwardTo(c) {
  while (++this.index < this.buffer.length + this.offset) {
    if (this.buffer.charCodeAt(this.index - this.offset) === c) {
      return true;
    }
  }
  this.index = this.buffer.length + this.offset - 1;
  return false;
}`;

t.test('the scanning loop is the one htmlparser2 has, and it is replaced', async (t) => {
  t.ok(replacesFastForward, 'htmlparser2 still has Tokenizer#fastForwardTo; if this fails, see scanning-tokenizer.ts');
  const upstream = (Tokenizer.prototype as unknown as Record<string, unknown>)['fastForwardTo'];
  t.equal(
    code(String(upstream)),
    code(upstreamFastForwardTo),
    'htmlparser2 changed the private method scanning-tokenizer.ts replaces: re-read it and the replacement',
  );
  const own = Object.getOwnPropertyDescriptor(ScanningTokenizer.prototype, 'fastForwardTo');
  t.type(own?.value, 'function');
});

t.test('on edge cases, split at every position, both tokenizers make the same calls', async (t) => {
  for (const { name, options } of modes) {
    for (const input of edges) {
      for (const chunk of [Math.max(1, input.length), 1, 2, 3, 5]) {
        t.same(calls(ScanningTokenizer, input, options, chunk), calls(Tokenizer, input, options, chunk), `${name}: ${input} in ${chunk}s`);
      }
    }
  }
});

const corpus = sharedCorpus('feeds');

t.test(
  'on every document of the corpus, whole and in chunks, both tokenizers make the same calls',
  { skip: 'skip' in corpus && corpus.skip },
  async (t) => {
    if (!('dir' in corpus)) return;
    const documents = [
      ...readdirSync(join(corpus.dir, 'feeds'))
        .filter((name) => name.endsWith('.xml'))
        .map((name) => join(corpus.dir, 'feeds', name)),
      ...readdirSync(join(corpus.dir, 'html', 'listing'))
        .filter((name) => name.endsWith('.html'))
        .map((name) => join(corpus.dir, 'html', 'listing', name)),
    ];
    let compared = 0;
    for (const file of documents) {
      const input = readFileSync(file, 'utf8');
      for (const { name, options } of modes) {
        for (const chunk of [input.length || 1, 997]) {
          const expected = calls(Tokenizer, input, options, chunk);
          const actual = calls(ScanningTokenizer, input, options, chunk);
          // One assertion per document and mode: a diff of thousands of calls names the first that differs.
          if (actual.length !== expected.length || actual.some((call, i) => call !== expected[i]))
            t.same(actual, expected, `${file}: ${name}, ${chunk}`);
          compared++;
        }
      }
    }
    t.ok(compared > 1000, `compared ${compared} tokenizations`);
  },
);
