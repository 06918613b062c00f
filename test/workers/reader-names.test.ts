import t from 'tap';
import { childGroups } from '../../workers/parse-feed/reader-names.js';
import { parseXml } from '../../workers/parse-feed/xml-tree.js';

/** The groups as `name: count` pairs, and the text of each group's first child, in the order childGroups gives. */
function grouped(xml: string): { names: string[]; firsts: string[] } {
  const root = parseXml(xml);
  if (root === undefined) throw new Error('no root');
  const groups = childGroups(root, 'rss');
  return { names: groups.map(([name, nodes]) => `${name}:${nodes.length}`), firsts: groups.map(([, nodes]) => nodes[0]?.text ?? '') };
}

t.test('children are grouped by reader name in the order each name first appears', async (t) => {
  const xml =
    '<item xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:x="urn:other">' +
    '<title>a</title><dc:creator>b</dc:creator><category>c1</category><x:title>d</x:title><category>c2</category><title>e</title></item>';
  t.same(grouped(xml), {
    names: ['title:2', 'dc:creator:1', 'category:2', '{urn:other}title:1'],
    firsts: ['a', 'b', 'c1', 'd'],
  });
});

t.test('an element with more names than the scan handles groups the same, past the switch to a Map', async (t) => {
  // 40 distinct names, then each again in reverse, then the first again: every group must get all of its children.
  const names = Array.from({ length: 40 }, (_, i) => `n${i}`);
  const children = [...names, ...[...names].reverse(), names[0] as string].map((name, i) => `<${name}>${i}</${name}>`).join('');
  const result = grouped(`<channel>${children}</channel>`);
  t.same(
    result.names,
    names.map((name, i) => `${name}:${i === 0 ? 3 : 2}`),
  );
  t.same(
    result.firsts,
    names.map((_, i) => String(i)),
  );
});
