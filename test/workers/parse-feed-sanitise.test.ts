import fc from 'fast-check';
import sanitizeHtml from 'sanitize-html';
import t from 'tap';
import { parseFeed } from '../../workers/parse-feed.js';
import { renderHtml } from '../../workers/shared/html.js';
import { allowedAttributes, allowedTags, nonTextTags } from '../../workers/shared/sanitise.js';
import { resolveUrl } from '../../workers/shared/urls.js';

const base = 'https://example.org/blog/post.html';
const clean = (html: string): string => renderHtml(html, base).html;
const cleanWithoutBase = (html: string): string => renderHtml(html, undefined).html;
const itemFrom = (html: string) => {
  const body = `<rss version="2.0"><channel><item><title>t</title><description><![CDATA[${html}]]></description></item></channel></rss>`;
  const item = parseFeed(body, { url: base }).items[0];
  if (item === undefined) throw new Error('Expected one item, got none');
  return item;
};

t.test('scripts, styles, frames, objects, embeds and forms are removed, with the text of scripts and styles', async (t) => {
  const html = clean(
    '<script>alert(1)</script><style>p{}</style><iframe src="https://x/"></iframe><object data="x"><param name="a"></object>' +
      '<embed src="x.swf"><form action="https://x/"><input name="q"><button>go</button></form><textarea>t</textarea>' +
      '<select><option>o</option></select><xmp><b>x</b></xmp><noscript>n</noscript><base href="https://evil/"><meta http-equiv="refresh"><link rel="stylesheet">',
  );
  t.notMatch(html, /<(?:script|style|iframe|object|param|embed|form|input|button|textarea|select|option|xmp|noscript|base|meta|link)\b/i);
  t.notMatch(html, /alert|p\{\}/, 'no script or style text');
  t.match(html, /go/, 'the text of other removed elements stays');
});

t.test('event handlers, style and unknown attributes never survive on allowed elements', async (t) => {
  const html = clean(
    '<p onclick="a()" style="color:red" class="x" id="y">p</p><a href="/x" onmouseover="a()" target="_blank">a</a><img src="/i.png" onerror="a()" srcset="x 2x">',
  );
  t.equal(html, '<p>p</p><a href="https://example.org/x">a</a><img src="https://example.org/i.png" />');
});

t.test('javascript:, vbscript: and data: URLs are dropped however they are spelled', async (t) => {
  const spellings = [
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'java&#x09;script:alert(1)',
    '&#106;avascript:alert(1)',
    'java&#10;script:alert(1)',
    'java\u0000script:alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html,<script>alert(1)</script>',
    'data:text/html;base64,PHNjcmlwdD4=',
    'java<!-- x -->script:alert(1)',
  ];
  for (const url of spellings) {
    const html = clean(
      `<a href="${url.replace(/"/g, '&quot;')}">a</a><img src="${url.replace(/"/g, '&quot;')}"><video poster="${url}" src="${url}"></video><blockquote cite="${url}">q</blockquote>`,
    );
    t.notMatch(
      html,
      /(?:href|src|poster|cite)="\s*(?:java|vbscript|data:text)/i,
      `${JSON.stringify(url)} is dropped or made a harmless relative URL`,
    );
    t.notMatch(
      cleanWithoutBase(`<a href="${url.replace(/"/g, '&quot;')}">a</a>`),
      /href="\s*(?:javascript|vbscript|data)/i,
      `${JSON.stringify(url)} without a base`,
    );
  }
});

t.test('data: never survives, not even for images', async (t) => {
  t.equal(clean('<img src="data:image/png;base64,iVBOR" alt="dot">'), '<img alt="dot" />');
  t.equal(clean('<img src="data:image/svg+xml;base64,PHN2Zz4=" alt="svg">'), '<img alt="svg" />', 'an SVG image can carry script');
  t.equal(
    clean('<img src="da&#9;ta:text/html;base64,PHNjcmlwdD4=">'),
    '<img />',
    'a tab inside the scheme does not sneak data:text/html through',
  );
  t.equal(clean('<a href="data:image/png;base64,iVBOR">x</a>'), '<a>x</a>', 'not on links');
});

t.test('relative href and src are made absolute; protocol-relative ones only when there is a base', async (t) => {
  t.equal(
    clean('<a href="../a?x=1&amp;y=2">a</a><img src="img/i.png">'),
    '<a href="https://example.org/a?x=1&amp;y=2">a</a><img src="https://example.org/blog/img/i.png" />',
  );
  t.equal(clean('<a href="//cdn.example.net/x">a</a>'), '<a href="https://cdn.example.net/x">a</a>');
  t.equal(cleanWithoutBase('<a href="//cdn.example.net/x">a</a>'), '<a>a</a>', 'without a base it could point anywhere, so it goes');
  t.equal(
    cleanWithoutBase('<a href="/x">a</a>'),
    '<a>a</a>',
    'without a base a relative link would resolve against whatever page shows it, so it goes',
  );
});

t.test('text and attribute values are escaped, so decoded markup never becomes markup', async (t) => {
  t.equal(clean('&lt;script&gt;alert(1)&lt;/script&gt; &amp; 1 &lt; 2'), '&lt;script&gt;alert(1)&lt;/script&gt; &amp; 1 &lt; 2');
  t.equal(
    clean('<a title="&quot;&gt;&lt;script&gt;" href="https://x/?q=&quot;">a</a>'),
    '<a title="&quot;&gt;&lt;script&gt;" href="https://x/?q=&quot;">a</a>',
  );
  t.equal(clean('<option>&lt;img src=x onerror=alert(1)&gt;</option>'), '', 'the text of a dropped option is dropped');
});

t.test('broken markup is balanced: unclosed elements are closed, stray end tags dropped', async (t) => {
  t.equal(clean('<p><b>bold<i>both</p>after</b></div>'), '<p><b>bold<i>both</i></b></p>after');
  t.equal(clean('<ul><li>one<li>two</ul>'), '<ul><li>one</li><li>two</li></ul>');
});

t.test('the raw text of iframe, noembed and noframes is dropped with the tag, as a browser never shows it', async (t) => {
  t.equal(clean('<iframe src="https://v.example/e"><p>fallback</p></iframe><p>b</p>'), '<p>b</p>');
  t.equal(clean('<noembed><b>x</b></noembed>y<noframes>z</noframes>'), 'y');
  t.equal(
    clean('<p>a</p><iframe src="https://v.example/e"/><p>b</p>'),
    '<p>a</p>',
    'an XHTML-style <iframe/> runs to the end, as HTML reads it',
  );
});

t.test('one fragment cannot leak into the next: state is reset between items', async (t) => {
  t.equal(clean('<script>never closed'), '');
  t.equal(clean('<b>open'), '<b>open</b>');
  t.equal(clean('after'), 'after', 'neither the script nor the <b> carries over');
});

t.test('the text rendering decodes entities, breaks at block boundaries and drops script text', async (t) => {
  const rendered = renderHtml('<h1>T&amp;C</h1><p>caf&eacute;&nbsp;au lait</p><script>x()</script><ul><li>a</li><li>b</li></ul>', base);
  t.equal(rendered.text, 'T&C\ncafé au lait\na\nb');
  t.equal(renderHtml('<table><tr><th>Team</th><td>Score</td></tr></table>', base).text, 'Team\nScore', 'two cells never read as one word');
});

t.test('an image with an unsafe src is never the thumbnail', async (t) => {
  t.equal(itemFrom('<img src="javascript:alert(1)"><p>x</p>').thumbnail, null);
  t.equal(
    itemFrom('<img src="vbscript:x"><img src="/ok.png">').thumbnail,
    'https://example.org/ok.png',
    'the first image that survives is',
  );
});

// The policy sanitize-html applied before the lean sanitiser replaced it (html.ts until 2026-11),
// tightened to the one URL rule (src/domain/safe-url.ts): http(s) only, mailto: on links, and no
// relative URL that no base made absolute.
function oracle(html: string, url: string | undefined): string {
  return sanitizeHtml(html, {
    // The policy is ours (one place: sanitise.ts); what is compared is how it is applied.
    allowedTags: [...allowedTags],
    nonTextTags: [...nonTextTags],
    allowedAttributes: Object.fromEntries(Object.entries(allowedAttributes).map(([tag, names]) => [tag, [...names]])),
    allowedSchemes: ['http', 'https'],
    allowedSchemesByTag: { a: ['http', 'https', 'mailto'] },
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    transformTags: {
      '*': (tagName, attribs) => {
        for (const name of ['href', 'src', 'poster', 'cite']) {
          const value = attribs[name];
          if (value === undefined) continue;
          const resolved = resolveUrl(value, url);
          if (/^[a-z][a-z0-9+.-]*:/i.test(resolved)) attribs[name] = resolved;
          else delete attribs[name];
        }
        return { tagName, attribs };
      },
    },
  });
}

t.test('the lean sanitiser writes exactly what sanitize-html wrote with the same policy', async (t) => {
  const tags = [
    'p',
    'a',
    'img',
    'b',
    'div',
    'script',
    'style',
    'iframe',
    'svg',
    'table',
    'td',
    'th',
    'li',
    'ul',
    'br',
    'wbr',
    'source',
    'video',
    'option',
    'textarea',
    'h2',
    'font',
    'blockquote',
    'tt',
    'strike',
    // Raw-text elements: the tokenizer decodes entities inside `title` only.
    'title',
    'xmp',
  ];
  const attributes = [
    'href',
    'src',
    'alt',
    'title',
    'onclick',
    'style',
    'poster',
    'cite',
    'colspan',
    'controls',
    'name',
    'width',
    'align',
    'border',
    'lang',
    'dir',
    'abbr',
    'valign',
  ];
  const values = [
    '',
    'x',
    '/rel',
    '../up?a=1&b=2',
    'https://ok.example/',
    '//proto.rel/x',
    'javascript:x',
    'JAVA SCRIPT:x',
    'data:image/gif;base64,R0',
    'data:text/html,x',
    'mailto:a@b',
    'a"b<c>&amp;',
    '  spaced  ',
    // Entity spellings whose decoding differs between text and attribute values (HTML's legacy rules).
    '/p?a=1&copy=2',
    '&copy',
    '&#x26;&#128;',
  ];
  const texts = ['hi', ' ', '&amp;', '&lt;b&gt;', '&nbsp;', '&eacute;', '<', '>', '&', '"q"', 'a\nb', '&#x27;', '&bogus;'];
  // Entities without `;`, numeric references HTML remaps, and a prefix of a longer name.
  texts.push('&copy', '&notit;', '&ampx', '&#128;', '&#0;', '&#xD800;');
  const attribute = fc
    .tuple(fc.constantFrom(...attributes), fc.constantFrom(...values))
    .map(([name, value]) => ` ${name}="${value.replace(/"/g, '&quot;')}"`);
  const open = fc
    .tuple(fc.constantFrom(...tags), fc.array(attribute, { maxLength: 3 }), fc.boolean())
    .map(([tag, attrs, selfClose]) => `<${tag}${attrs.join('')}${selfClose ? '/' : ''}>`);
  const close = fc.constantFrom(...tags).map((tag) => `</${tag}>`);
  const token = fc.oneof(open, close, fc.constantFrom(...texts), fc.constant('<!-- c -->'));
  const fragment = fc.array(token, { maxLength: 25 }).map((parts) => parts.join(''));
  fc.assert(
    fc.property(fragment, fc.constantFrom(base, undefined), (html, url) => {
      // In a raw-text element, htmlparser2 12 with entity decoding on (sanitize-html's setting; ours
      // decodes after) leaves a reference right after a `<` undecoded: `<title><&#128;` reads `<&#128;`
      // there, `<€` here and in HTML. A quirk of the oracle, not a policy to compare.
      fc.pre(!html.includes('<&'));
      return renderHtml(html, url).html === oracle(html, url);
    }),
    { numRuns: 3000, seed: 42 },
  );
  t.pass('3000 generated fragments agree');
});

t.test('presentational attributes readers need are kept: alignment, borders, sizes, spans, language and direction', async (t) => {
  t.equal(
    clean(
      '<table border="1" width="100%" align="center"><tr valign="top"><th abbr="N" scope="col">Name</th><td colspan="2" rowspan="1" align="right" width="50">x</td></tr></table>',
    ),
    '<table border="1" width="100%" align="center"><tr valign="top"><th abbr="N" scope="col">Name</th><td colspan="2" rowspan="1" align="right" width="50">x</td></tr></table>',
  );
  t.equal(
    clean('<p lang="fr" dir="rtl" title="t" align="center" class="x" style="y">p</p>'),
    '<p lang="fr" dir="rtl" title="t" align="center">p</p>',
  );
  t.equal(
    clean('<img src="/i.png" border="0" align="left" width="10" height="20" onload="x()">'),
    '<img src="https://example.org/i.png" border="0" align="left" width="10" height="20" />',
  );
});
