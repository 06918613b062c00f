import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SaxesParser } from 'saxes';
import t from 'tap';
import { parseXml, type XmlNode } from '../../workers/parse-feed/xml-tree.js';
import { decodeXmlText } from '../../workers/parse-feed/xml-text.js';
import { sharedCorpus } from '../fixtures/corpus.js';

const corpus = sharedCorpus('feeds');

/** One element as both parsers must agree on it: `{uri}local`, its attributes the same way, its own text. */
type Entry = string;

function ours(node: XmlNode, into: Entry[]): Entry[] {
  const attributes = node.attributes.map((a) => `{${a.uri}}${a.local}=${decodeXmlText(a.value)}`).sort();
  into.push(`{${node.uri}}${node.local} [${attributes.join(' ')}] ${(decodeXmlText(node.text) + node.cdata).replace(/\s+/g, '')}`);
  for (const child of node.children) ours(child, into);
  return into;
}

/**
 * saxes, a strict namespace-aware parser, as the oracle: the same list of entries, or undefined
 * when it finds the document not well-formed (those are the documents we read leniently).
 */
function reference(xml: string): Entry[] | undefined {
  const parser = new SaxesParser({ xmlns: true });
  const entries: Entry[] = [];
  // Our tree keeps an element's text and its CDATA sections apart (text first): so does this list.
  const open: { index: number; text: string; cdata: string }[] = [];
  let failed = false;
  parser.on('error', () => {
    failed = true;
  });
  parser.on('opentag', (tag) => {
    const attributes = Object.values(tag.attributes)
      .filter((a) => a.prefix !== 'xmlns' && a.name !== 'xmlns')
      // saxes normalises whitespace in values as XML 3.3.3 says; we keep it as written, trimmed.
      .map((a) => `{${a.uri}}${a.local}=${a.value.trim()}`)
      .sort();
    open.push({ index: entries.length, text: '', cdata: '' });
    entries.push(`{${tag.uri ?? ''}}${tag.local ?? tag.name} [${attributes.join(' ')}]`);
  });
  parser.on('text', (text) => {
    const current = open[open.length - 1];
    if (current !== undefined) current.text += text;
  });
  parser.on('cdata', (cdata) => {
    const current = open[open.length - 1];
    if (current !== undefined) current.cdata += cdata;
  });
  parser.on('closetag', () => {
    const closed = open.pop();
    if (closed !== undefined) entries[closed.index] += ` ${(closed.text + closed.cdata).replace(/\s+/g, '')}`;
  });
  parser.write(xml).close();
  return failed ? undefined : entries;
}

t.test(
  'on every well-formed XML document of the feed corpus, our tree resolves names, attributes and text as saxes does',
  { skip: 'skip' in corpus && corpus.skip },
  async (t) => {
    if (!('dir' in corpus)) return;
    const dir = join(corpus.dir, 'feeds');
    const files = readdirSync(dir).filter((name) => name.endsWith('.xml'));
    let compared = 0;
    for (const name of files) {
      const raw = readFileSync(join(dir, name), 'utf8');
      // parseFeed hands the reader the text from the first "<" on; do the same here.
      const text = raw.slice(Math.max(0, raw.indexOf('<'))).replace(/\r\n?/g, '\n');
      const expected = reference(text);
      if (expected === undefined) continue;
      const root = parseXml(text);
      t.same(root === undefined ? [] : ours(root, []), expected, name);
      compared++;
    }
    t.ok(compared > 400, `compared on ${compared} of ${files.length} documents`);
  },
);
