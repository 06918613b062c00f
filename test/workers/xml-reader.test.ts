import t from 'tap';
import { readXmlTree, type XmlElement } from '../../workers/parse-feed/xml-reader.js';
import { thrown } from './feed-fixtures.js';

/** The document element of `xml`, which these cases always name `r`. */
function root(xml: string): XmlElement | string {
  const list = readXmlTree(xml)['r'];
  if (!Array.isArray(list)) throw new Error(`expected an <r> element in ${xml}`);
  return list[0] as XmlElement | string;
}

function message(fn: () => unknown): string {
  const error = thrown(fn);
  return error instanceof Error ? error.message : `no error (${String(error)})`;
}

t.test('an element with neither attributes nor children is its trimmed text; repeated children form an array', async (t) => {
  t.same(root('<r><a> one </a><a/><b></b><a>two</a></r>'), { a: ['one', '', 'two'], b: [''] });
});

t.test('attributes stay raw: entities undecoded, values trimmed, booleans true, unquoted and single-quoted values read', async (t) => {
  t.same(root(`<r><e href=" a&amp;b " type='html' checked x=plain/></r>`), {
    e: [{ '@href': 'a&amp;b', '@type': 'html', '@checked': true, '@x': 'plain' }],
  });
});

t.test('a quoted attribute value may hold ">" and "/" without ending the tag', async (t) => {
  t.same(root('<r><e a="1>2" b="x/"><c>in</c></e></r>'), { e: [{ '@a': '1>2', '@b': 'x/', c: ['in'] }] });
});

t.test('text around comments, child elements and processing instructions is trimmed per run and concatenated', async (t) => {
  t.same(root('<r> a<!-- gone -->b <c>x</c> d <?pi no?> e </r>'), { c: ['x'], '#text': 'abde' });
});

t.test('CDATA sections are kept apart from the text and literally', async (t) => {
  t.same(root('<r>t<x><![CDATA[ <b>&amp;</b> ]]><![CDATA[]]></x></r>'), { x: [{ '#cdata': [' <b>&amp;</b> ', ''] }], '#text': 't' });
});

t.test('text constructs keep their inner markup raw and untrimmed', async (t) => {
  const tree = root('<r><title type="xhtml"> <div><b>bold</b> &amp; <title>inner</title></div> </title><description/></r>');
  t.same(tree, { title: [{ '@type': 'xhtml', '#text': ' <div><b>bold</b> &amp; <title>inner</title></div> ' }], description: [''] });
});

t.test('a closing tag inside CDATA, a comment or another element name does not end a text construct', async (t) => {
  const tree = root('<r><description><![CDATA[a</description>b]]><!-- </description> --><descriptions>c</descriptions></description></r>');
  t.same(tree, { description: ['<![CDATA[a</description>b]]><!-- </description> --><descriptions>c</descriptions>'] });
});

t.test('prefixed text constructs are read raw; other prefixed elements are parsed', async (t) => {
  t.same(root('<r><content:encoded><p>x</p></content:encoded><dc:creator><p>y</p></dc:creator></r>'), {
    'content:encoded': ['<p>x</p>'],
    'dc:creator': [{ p: ['y'] }],
  });
});

t.test('line breaks are read as \\n everywhere, as XML 2.11 says', async (t) => {
  t.same(root('<r a="1\r\n2">x\r\ny\rz<title>\r\n</title></r>'), { '@a': '1\n2', '#text': 'x\ny\nz', title: ['\n'] });
});

t.test('damage real feeds carry is tolerated: a wrongly named closing tag, elements left open at the end', async (t) => {
  t.same(root('<r><a>x</b><c>y</c>'), { a: ['x'], c: ['y'] });
});

t.test('a text construct closed by a wrongly named tag ends there, as in a lenient reader', async (t) => {
  t.same(root('<r><title type="xhtml"><div><p>T</p></div></subtitle><id>1</id></r>'), {
    title: [{ '@type': 'xhtml', '#text': '<div><p>T</p></div>' }],
    id: ['1'],
  });
  t.same(root('<r><s><title>Source</subtitle></s></r>'), { s: [{ title: ['Source'] }] }, 'the stray tag closes only the text construct');
});

t.test('many text constructs closed by wrongly named tags are read in one pass, not one scan to the end each', async (t) => {
  const count = 50_000; // ≈ 1.2 MB: rescanning to the end for each would compare about 60 billion characters
  const started = performance.now();
  const tree = root(`<r>${'<title>t</subtitle>'.repeat(count)}</r>`);
  const elapsed = performance.now() - started;
  t.equal(((tree as XmlElement)['title'] as unknown[]).length, count);
  t.ok(elapsed < 5_000, `read in ${elapsed.toFixed(0)} ms`);
});

t.test('hostile markup inside a text construct costs one pass, however its quotes and names are arranged', async (t) => {
  const count = 50_000;
  const started = performance.now();
  // Nested openings never closed: refused, as they should be, but quickly.
  t.match(message(() => readXmlTree(`<r><description>${'<description "'.repeat(count)}</description></r>`)), /Unexpected end of description/);
  t.match(message(() => readXmlTree(`<r><description>${'<description x="a" '.repeat(count)}</description></r>`)), /Unexpected end of description/);
  // Quotes that never pair inside attribute lists: read or refused, either way in one pass.
  message(() => readXmlTree(`<r>${'<e a="1 b=\'2/>'.repeat(count)}</r>`));
  const elapsed = performance.now() - started;
  t.ok(elapsed < 5_000, `read or refused in ${elapsed.toFixed(0)} ms`);
});

t.test('the XML declaration, processing instructions and a DOCTYPE with internal entities are skipped, nothing expanded', async (t) => {
  const xml = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "a>b"><!-- ] > --><!ELEMENT r ANY>]><?pi x?><r>&e;</r>';
  t.same(readXmlTree(xml), { r: ['&e;'] });
});

t.test('names that would reach Object.prototype or collide with our keys are moved out of the way', async (t) => {
  const tree = root('<r><__proto__><polluted>yes</polluted></__proto__><_x>ok</_x></r>');
  t.equal(({} as Record<string, unknown>)['polluted'], undefined, 'Object.prototype is untouched');
  t.same(Object.keys(tree as XmlElement), ['#__proto__', '_x']);
  t.same(root('<r><#text>x</#text></r>'), { '##text': ['x'] });
  t.same(root('<r><constructor>a</constructor><toString>b</toString><constructor/></r>'), { constructor: ['a', ''], toString: ['b'] }, 'names Object.prototype also has are ordinary elements');
});

t.test('what cannot be read is refused with a message that says what and where', async (t) => {
  t.match(message(() => readXmlTree('<r><a href="x"')), /a tag is not closed \(at "<a href/);
  t.match(message(() => readXmlTree('<r><!-- open')), /a comment is not closed/);
  t.match(message(() => readXmlTree('<r><![CDATA[ open')), /a CDATA section is not closed/);
  t.match(message(() => readXmlTree('<r><?pi open')), /a processing instruction is not closed/);
  t.match(message(() => readXmlTree('<r></r')), /a closing tag is not closed/);
  t.match(message(() => readXmlTree('<r><title>no end')), /Unexpected end of title/);
  t.match(message(() => readXmlTree('<r><description>a<br>b</r>')), /Unexpected end of description/, 'no level to come back to');
  t.match(message(() => readXmlTree('<!DOCTYPE r [<!ENTITY e "x">')), /Unclosed DOCTYPE/);
});

t.test('nesting is bounded, so a hostile document cannot exhaust the readers that recurse over the tree', async (t) => {
  t.doesNotThrow(() => readXmlTree(`${'<x>'.repeat(100)}${'</x>'.repeat(100)}`), '100 levels are read');
  t.match(message(() => readXmlTree(`${'<x>'.repeat(101)}${'</x>'.repeat(101)}`)), /nested deeper than 100 levels/);
});

t.test('external and parameter entity declarations are refused, whatever their case or spacing', async (t) => {
  t.match(message(() => readXmlTree('<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>')), /External entities/);
  t.match(message(() => readXmlTree('<!DOCTYPE r [<!ENTITY\n  x\tpublic "-//x" "http://x/">]><r/>')), /External entities/);
  t.match(message(() => readXmlTree('<!DOCTYPE r [<!ENTITY % p SYSTEM "http://x/">%p;]><r/>')), /Parameter entities/);
  t.same(readXmlTree('<!DOCTYPE rss PUBLIC "-//Netscape//DTD RSS 0.91//EN" "http://x/rss-0.91.dtd"><r/>'), { r: [''] }, 'an external DTD reference alone is skipped, never fetched');
});
