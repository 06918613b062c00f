import t from 'tap';
import { innerXml, parseXml, type XmlNode } from '../../workers/parse-feed/xml-tree.js';
import { thrown } from './feed-fixtures.js';

/** A node reduced to what these cases compare: `{uri}local`, attributes, text, CDATA, children. */
interface Shape {
  name: string;
  attributes?: Record<string, string>;
  text?: string;
  cdata?: string;
  children?: Shape[];
}

function shape(node: XmlNode): Shape {
  const result: Shape = { name: node.uri === '' ? node.local : `{${node.uri}}${node.local}` };
  if (node.attributes.length > 0) {
    result.attributes = Object.fromEntries(node.attributes.map((a) => [a.uri === '' ? a.local : `{${a.uri}}${a.local}`, a.value]));
  }
  if (node.text !== '') result.text = node.text;
  if (node.cdata !== '') result.cdata = node.cdata;
  if (node.children.length > 0) result.children = node.children.map(shape);
  return result;
}

function read(xml: string): Shape | undefined {
  const root = parseXml(xml);
  return root === undefined ? undefined : shape(root);
}

function message(fn: () => unknown): string {
  const error = thrown(fn);
  return error instanceof Error ? error.message : `no error (${String(error)})`;
}

const atom = 'http://www.w3.org/2005/Atom';
const dc = 'http://purl.org/dc/elements/1.1/';

t.test('element names are resolved to (namespace URI, local name): default namespaces, prefixes, redeclarations', async (t) => {
  const xml = `<a:feed xmlns:a="${atom}" xmlns="urn:d"><a:title>T</a:title><x/><b:y xmlns:b="${dc}"><b:z/></b:y><a:e xmlns:a="urn:other"/><q xmlns=""/></a:feed>`;
  t.same(read(xml), {
    name: `{${atom}}feed`,
    children: [
      { name: `{${atom}}title`, text: 'T' },
      { name: '{urn:d}x' },
      { name: `{${dc}}y`, children: [{ name: `{${dc}}z` }] },
      { name: '{urn:other}e' },
      { name: 'q' },
    ],
  });
});

t.test(
  'attributes: unprefixed ones are in no namespace, xml:base is in the XML namespace, xmlns declarations are not attributes',
  async (t) => {
    t.same(read(`<r xmlns="urn:d" xmlns:p="urn:p" a=" 1&amp;2 " p:b='x' xml:base="/b/" c=plain />`), {
      name: '{urn:d}r',
      attributes: { a: '1&amp;2', '{urn:p}b': 'x', '{http://www.w3.org/XML/1998/namespace}base': '/b/', c: 'plain' },
    });
  },
);

t.test('an undeclared prefix resolves to the namespace it conventionally names, or to one no reader knows', async (t) => {
  t.same(read('<r><dc:creator>Jo</dc:creator><content:encoded>x</content:encoded><zz:q/></r>'), {
    name: 'r',
    children: [
      { name: `{${dc}}creator`, text: 'Jo' },
      { name: '{http://purl.org/rss/1.0/modules/content/}encoded', text: 'x' },
      { name: '{urn:feedmill:undeclared-prefix:zz}q' },
    ],
  });
});

t.test('text runs are trimmed and joined, comments and processing instructions vanish, CDATA is kept apart and literal', async (t) => {
  t.same(read('<r> a<!-- gone -->b <c>x</c> d <?pi no?> e <![CDATA[ <b>&amp;</b> ]]></r>'), {
    name: 'r',
    text: 'abde',
    cdata: ' <b>&amp;</b> ',
    children: [{ name: 'c', text: 'x' }],
  });
});

t.test('every element keeps its inner markup as written, for the readers that want it raw', async (t) => {
  const root = parseXml('<r><title type="xhtml"> <div><b>bold</b> &amp; <title>inner</title></div> </title><d/></r>');
  const [title, empty] = root?.children ?? [];
  t.equal(title && innerXml(title), ' <div><b>bold</b> &amp; <title>inner</title></div> ');
  t.equal(empty && innerXml(empty), '');
});

t.test('line breaks are read as \\n everywhere, as XML 2.11 says', async (t) => {
  const root = parseXml('<r a="1\r\n2">x\r\ny\rz<title>\r\n</title></r>');
  t.same(root && shape(root), { name: 'r', attributes: { a: '1\n2' }, text: 'x\ny\nz', children: [{ name: 'title' }] });
  t.equal(root?.children[0] && innerXml(root.children[0]), '\n');
});

t.test('broken documents are read as far as they go', async (t) => {
  t.same(
    read('<r><a>x</z><c>y</c>'),
    {
      name: 'r',
      children: [
        { name: 'a', text: 'x' },
        { name: 'c', text: 'y' },
      ],
    },
    'a wrongly named closing tag closes the open element; elements left open at the end are kept',
  );
  t.same(
    read('<r><a><b>x</a><c/></r>'),
    { name: 'r', children: [{ name: 'a', children: [{ name: 'b', text: 'x' }] }, { name: 'c' }] },
    'a closing tag closes the elements opened inside its own',
  );
  t.same(
    read('<r><d><p>a</b>b</p></d><e/></r>'),
    { name: 'r', children: [{ name: 'd', children: [{ name: 'p', text: 'ab' }] }, { name: 'e' }] },
    'a stray HTML end tag is ignored, as HTML parsers ignore it',
  );
  t.same(read('<r><a href="x"'), { name: 'r' }, 'a tag cut off at the end is dropped');
  t.same(read('<r><t>cut'), { name: 'r', children: [{ name: 't', text: 'cut' }] }, 'text cut off at the end is kept');
  t.same(read('<r><![CDATA[ open'), { name: 'r', cdata: ' open' }, 'an unterminated CDATA section runs to the end');
  t.same(read('<r>a & b < c</r>'), { name: 'r', text: 'a & b < c' }, 'an unescaped & and a lone < are text');
  t.same(
    read('<r><s><title>Source</subtitle></s><id>1</id></r>'),
    {
      name: 'r',
      children: [
        { name: 's', children: [{ name: 'title', text: 'Source' }] },
        { name: 'id', text: '1' },
      ],
    },
    '<title>…</subtitle> closes the title, as gofeed reads it',
  );
});

t.test('many wrongly closed elements are read in one pass', async (t) => {
  const count = 50_000;
  const root = parseXml(`<r>${'<title>t</subtitle>'.repeat(count)}</r>`);
  t.equal(root?.children.length, count);
});

t.test('the XML declaration, processing instructions and a DOCTYPE with internal entities are skipped, nothing expanded', async (t) => {
  t.same(read('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "ab"><!-- c --><!ELEMENT r ANY>]><?pi x?><r>&e;</r>'), {
    name: 'r',
    text: '&e;',
  });
});

t.test('external and parameter entity declarations refuse the document', async (t) => {
  t.match(
    message(() => parseXml('<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>')),
    /External entities are not supported/,
  );
  t.match(
    message(() => parseXml('<!DOCTYPE r [<!ENTITY x PUBLIC "-//x" "http://e/x">]><r/>')),
    /External entities are not supported/,
  );
  t.match(
    message(() => parseXml('<!DOCTYPE r [<!ENTITY % p SYSTEM "http://e/p">%p;]><r/>')),
    /Parameter entities are not supported/,
  );
  t.same(
    read('<!DOCTYPE rss SYSTEM "http://my.netscape.com/publish/formats/rss-0.91.dtd"><rss/>'),
    { name: 'rss' },
    'an external DTD is not an entity: ignored, never fetched',
  );
});

t.test('names are compared, never used as keys: Object.prototype stays untouched', async (t) => {
  const root = parseXml('<r><__proto__><polluted>yes</polluted></__proto__><constructor a="1"/></r>');
  t.equal(({} as Record<string, unknown>)['polluted'], undefined);
  t.same(
    root?.children.map((c) => c.local),
    ['#__proto__', 'constructor'],
  );
});

t.test('nesting is bounded, so a hostile document cannot exhaust the readers that recurse over the tree', async (t) => {
  t.doesNotThrow(() => parseXml(`${'<x>'.repeat(100)}${'</x>'.repeat(100)}`), '100 levels are read');
  t.match(
    message(() => parseXml(`${'<x>'.repeat(101)}${'</x>'.repeat(101)}`)),
    /nested deeper than 100 levels/,
  );
});

t.test('a document without elements has no root; anything after the root element is ignored', async (t) => {
  t.equal(parseXml('just text'), undefined);
  t.same(read('<r/><s/>'), { name: 'r' });
});
