import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from 'htmlparser2';
import t from 'tap';
import { parseFeed } from '../../workers/parse-feed.js';
import { sharedCorpus } from '../fixtures/corpus.js';

const corpus = sharedCorpus('feeds');

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** Where each element and attribute name is, as the tokenizer reads the document. */
function names(xml: string): { start: number; end: number; element: boolean }[] {
  const found: { start: number; end: number; element: boolean }[] = [];
  const noop = (): void => {};
  const tokenizer = new Tokenizer(
    { xmlMode: true, decodeEntities: false },
    {
      onopentagname: (start, end) => found.push({ start, end, element: true }),
      onclosetag: (start, end) => found.push({ start, end, element: true }),
      onattribname: (start, end) => found.push({ start, end, element: false }),
      onattribdata: noop,
      onattribentity: noop,
      onattribend: noop,
      oncdata: noop,
      oncomment: noop,
      ondeclaration: noop,
      onend: noop,
      onopentagend: noop,
      onprocessinginstruction: noop,
      onselfclosingtag: noop,
      ontext: noop,
      ontextentity: noop,
    },
  );
  tokenizer.write(xml);
  tokenizer.end();
  return found;
}

function applyEdits(xml: string, edits: Edit[]): string {
  let result = '';
  let position = 0;
  for (const edit of edits.sort((a, b) => a.start - b.start)) {
    result += xml.slice(position, edit.start) + edit.text;
    position = edit.end;
  }
  return result + xml.slice(position);
}

/** Every prefix the document declares, renamed (`dc` → `p1`): in element names, attribute names and declarations. */
export function swapPrefixes(xml: string): string | undefined {
  const declared = new Set([...xml.matchAll(/\sxmlns:([\w.-]+)\s*=/g)].map((m) => m[1] as string));
  if (declared.size === 0) return undefined;
  const renamed = new Map([...declared].map((prefix, i) => [prefix, `p${i + 1}x`]));
  const edits: Edit[] = [];
  for (const { start, end } of names(xml)) {
    const name = xml.slice(start, end);
    const colon = name.indexOf(':');
    if (colon <= 0) continue;
    const prefix = name.slice(0, colon);
    const replacement = name === `xmlns:${name.slice(6)}` && prefix === 'xmlns' ? renamed.get(name.slice(6)) : renamed.get(prefix);
    if (replacement === undefined) continue;
    edits.push(prefix === 'xmlns' ? { start: start + 6, end, text: replacement } : { start, end: start + colon, text: replacement });
  }
  return applyEdits(xml, edits);
}

/**
 * The root's default namespace bound to a prefix instead, and every unprefixed element named
 * with it, when the root's declaration is the document's only default namespace.
 */
export function prefixDefaultNamespace(xml: string): string | undefined {
  const defaults = [...xml.matchAll(/\sxmlns\s*=/g)];
  if (defaults.length !== 1) return undefined;
  const all = names(xml);
  const root = all[0];
  if (root === undefined) return undefined;
  const edits: Edit[] = [];
  for (const { start, end, element } of all) {
    const name = xml.slice(start, end);
    if (element && !name.includes(':')) edits.push({ start, end: start, text: 'd0x:' });
    else if (!element && name === 'xmlns') edits.push({ start: end, end, text: ':d0x' });
  }
  // The declaration must sit on the root, or part of the document would change namespace.
  const declaration = all.find(({ start, end, element }) => !element && xml.slice(start, end) === 'xmlns');
  const rootEnd = xml.indexOf('>', root.end);
  if (declaration === undefined || declaration.start > rootEnd) return undefined;
  return applyEdits(xml, edits);
}

/** What the reader read; the hash of each entry's source text differs by its prefixes, by design. */
function outcome(body: string): unknown {
  try {
    const feed = parseFeed(body, { url: 'https://example.org/feed.xml' });
    return { ...feed, items: feed.items.map(({ source_hash: _source, ...item }) => item) };
  } catch (error) {
    return { error: error instanceof Error ? error.message.replace(/<[^>]*>/g, '<…>') : String(error) };
  }
}

t.test(
  'every prefix of every corpus document swapped for another gives the same feed',
  { skip: 'skip' in corpus && corpus.skip },
  async (t) => {
    if (!('dir' in corpus)) return;
    const dir = join(corpus.dir, 'feeds');
    let swapped = 0;
    let defaulted = 0;
    for (const name of readdirSync(dir).filter((file) => file.endsWith('.xml'))) {
      const xml = readFileSync(join(dir, name), 'utf8');
      const expected = outcome(xml);
      const withPrefixes = swapPrefixes(xml);
      if (withPrefixes !== undefined) {
        swapped++;
        t.same(outcome(withPrefixes), expected, `${name}: prefixes swapped`);
      }
      const withDefault = prefixDefaultNamespace(xml);
      if (withDefault !== undefined) {
        defaulted++;
        t.same(outcome(withDefault), expected, `${name}: default namespace made a prefix`);
      }
    }
    t.ok(swapped > 80, `${swapped} documents with their prefixes swapped`);
    t.ok(defaulted > 50, `${defaulted} documents with their default namespace made a prefix`);
  },
);
