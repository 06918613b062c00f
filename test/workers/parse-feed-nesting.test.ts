import t from 'tap';
import { extractPage } from '../../workers/extract-page.js';
import { parseFeed } from '../../workers/parse-feed.js';
import { maxHtmlDepth } from '../../workers/shared/sanitise.js';

const meta = { url: 'https://example.org/feed.xml' };

function nested(depth: number, inner: string, tag = 'div'): string {
  return `${`<${tag}>`.repeat(depth)}${inner}${`</${tag}>`.repeat(depth)}`;
}

function rss(item: string): string {
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Deep</title><item><guid>1</guid>${item}</item></channel></rss>`;
}

/** CPU time of `run` in ms: other processes on a loaded machine take wall-clock time, not this. */
function cpuMs(run: () => unknown): number {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/**
 * The least CPU time of a few runs of each size, taken in turns so that whatever else this process
 * does (a GC, a JIT tier-up) hits both sizes alike; the ratio of the two is what the test judges,
 * never a time.
 */
function growth(
  build: (depth: number) => string,
  run: (document: string) => unknown,
  smallDepth = 20_000,
): { small: number; large: number; ratio: number } {
  const smallDocument = build(smallDepth);
  const largeDocument = build(smallDepth * 5);
  let small = Infinity;
  let large = Infinity;
  for (let round = 0; round < 5; round++) {
    small = Math.min(
      small,
      cpuMs(() => run(smallDocument)),
    );
    large = Math.min(
      large,
      cpuMs(() => run(largeDocument)),
    );
  }
  return { small, large, ratio: large / small };
}

// 5× the nesting costs 5× the time when parsing is linear and 25× when it is quadratic; before the
// flat parser stack it was 25-46× (100k nested elements took ~8 s, 20k ~0.2 s). The bound sits
// between the two, with room for the GC.
const maxRatio = 10;

const feeds: Record<string, (depth: number) => string> = {
  'a CDATA description': (depth) => rss(`<title>t</title><description><![CDATA[${nested(depth, 'x')}]]></description>`),
  'an escaped description': (depth) =>
    rss(`<title>t</title><description>${nested(depth, 'x').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</description>`),
  'a title': (depth) => rss(`<title><![CDATA[${nested(depth, 'deep title')}]]></title>`),
  // <svg> and its HTML islands (<desc>) have a second stack in htmlparser2, with the same cost.
  'a description of svg': (depth) => rss(`<title>t</title><description><![CDATA[${nested(depth, 'x', 'svg')}]]></description>`),
  'a description of svg islands': (depth) =>
    rss(`<title>t</title><description><![CDATA[<svg>${nested(depth, 'x', 'desc')}</svg>]]></description>`),
};

for (const [what, build] of Object.entries(feeds)) {
  t.test(`${what} of 100k nested elements parses in time linear in its nesting`, async (t) => {
    const { small, large, ratio } = growth(build, (document) => parseFeed(document, meta));
    t.ok(
      ratio <= maxRatio,
      `100k vs 20k levels: ${large.toFixed(0)} vs ${small.toFixed(0)} ms of CPU, ${ratio.toFixed(1)}× (at most ${maxRatio}×)`,
    );
  });
}

t.test(`item HTML deeper than ${maxHtmlDepth} levels is flattened to its text`, async (t) => {
  const deep = nested(maxHtmlDepth + 50, '<p>deep <a href="https://example.org/x">words</a></p><script>never()</script>');
  const item = parseFeed(rss(`<title>t</title><description><![CDATA[${deep}]]></description>`), meta).items[0];
  t.equal(item?.description_html.split('<div>').length, maxHtmlDepth + 1, `${maxHtmlDepth} <div> tags are kept`);
  t.equal(item?.description_html.split('</div>').length, maxHtmlDepth + 1, 'each closed');
  t.notMatch(item?.description_html ?? '', /<p>|<a /, 'nothing past the limit is written as a tag');
  t.match(item?.description_html ?? '', /deep words/, 'its text is kept');
  t.notMatch(item?.description_html ?? '', /never/, 'a script past the limit still loses its text');
  t.equal(item?.description_text, 'deep words');
});

t.test(`item HTML within ${maxHtmlDepth} levels keeps its markup`, async (t) => {
  const item = parseFeed(rss(`<title>t</title><description><![CDATA[${nested(maxHtmlDepth - 1, '<p>x</p>')}]]></description>`), meta)
    .items[0];
  t.match(item?.description_html ?? '', /<div><p>x<\/p><\/div>/);
});

for (const tag of ['div', 'svg']) {
  // A page's tree of 20k elements still dies young and one of 40k no longer does, which alone
  // made 100k vs 20k up to 10× for linear code; 200k vs 40k compares two trees past that step.
  t.test(`a page of 200k nested <${tag}> elements is extracted in time linear in its nesting`, async (t) => {
    const page = (depth: number): string =>
      `<body>${nested(depth, '<ul><li><a href="/a">A deeply buried first article</a></li><li><a href="/b">A deeply buried second article</a></li></ul>', tag)}</body>`;
    const { small, large, ratio } = growth(page, (html) => extractPage(html, { url: 'https://deep.example/' }), 40_000);
    t.ok(
      ratio <= maxRatio,
      `200k vs 40k levels: ${large.toFixed(0)} vs ${small.toFixed(0)} ms of CPU, ${ratio.toFixed(1)}× (at most ${maxRatio}×)`,
    );
  });
}
