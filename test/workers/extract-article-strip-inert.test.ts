import t from 'tap';
import { stripInert } from '../../workers/extract-article/strip-inert.js';

t.test('scripts, styles, SVG, templates and comments are cut; JSON-LD and the text around them stay', async (t) => {
  const html =
    '<head><script>var a = "</p>";</script><script type="application/ld+json">{"@type":"Article"}</script>' +
    '<STYLE media="x">p{}</STYLE></head><body><p>one</p><svg viewBox="0 0 1 1"><path d="M0"/></svg><!-- a <p>comment</p> -->' +
    '<template><p>later</p></template><p>two</p></body>';
  t.equal(
    stripInert(html),
    '<head><script type="application/ld+json">{"@type":"Article"}</script></head><body><p>one</p><p>two</p></body>',
  );
});

t.test('JSON-LD is skipped whole: markup written inside its strings is text', async (t) => {
  const html = '<script type="application/ld+json">{"a":"<script>x<\\/script> <!-- y -->"}</script><p>z</p>';
  t.equal(stripInert(html), html);
});

t.test('only whole tag names are cut, and an unclosed cut runs to the end as in a browser', async (t) => {
  t.equal(stripInert('<scripts>kept</scripts><style-guide>kept</style-guide>'), '<scripts>kept</scripts><style-guide>kept</style-guide>');
  t.equal(stripInert('<p>before</p><script>never closed <p>after</p>'), '<p>before</p>');
});

t.test('the scan is linear: many patterns that never close, or never occur, cost no re-scans', async (t) => {
  // 20k comments and no other pattern: a scan that looked for every pattern afresh after each cut
  // would read the page 20k times. Compared by growth, not by a time budget.
  const page = (n: number): string => '<p>x</p><!-- c -->'.repeat(n);
  const time = (html: string): number => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < 5; i++) stripInert(html);
    return Number(process.hrtime.bigint() - start);
  };
  time(page(1000));
  const small = time(page(20_000));
  const large = time(page(80_000));
  t.ok(large < small * 12, `4x the input took ${(large / small).toFixed(1)}x the time (quadratic would be 16x)`);
  t.equal(stripInert(page(3)), '<p>x</p><p>x</p><p>x</p>');
});
