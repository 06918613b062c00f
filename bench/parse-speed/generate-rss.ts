/**
 * A deterministic RSS 2.0 document of about `targetBytes`, shaped like a busy news feed: HTML
 * descriptions escaped with entities (thousands of `&lt;`/`&amp;`/`&#8217;` per megabyte),
 * `content:encoded` in CDATA, several categories, an enclosure, `dc:creator`, a media thumbnail,
 * a non-permalink guid, and whitespace before `<?xml` (real servers send it; strict parsers refuse it).
 */
export interface GeneratedFeed {
  xml: string;
  items: number;
}

const words = [
  'market',
  'council',
  'river',
  'analysis',
  'report',
  'season',
  'energy',
  'city',
  'team',
  'budget',
  'research',
  'school',
  'weather',
  'policy',
  'festival',
  'transport',
  'health',
  'court',
  'museum',
  'vote',
  'café',
  'naïve',
  'Zürich',
  'São Paulo',
  '“quoted”',
  'fish & chips',
  '<b>bold</b>',
  'AT&T',
];
const authors = ['Ana Lima', 'Jo Bloggs', 'Mei Chen', 'Ola Nordmann', 'Zoë Dubois'];
const sections = ['World', 'Politics', 'Science & Tech', 'Culture', 'Sport', 'Business', 'Opinion'];

/** A small LCG: the same seed gives the same document on every machine. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function generateRss(targetBytes: number, seed = 1): GeneratedFeed {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const sentence = (n: number): string => Array.from({ length: n }, () => pick(words)).join(' ');
  const parts: string[] = [
    '\n  \n<?xml version="1.0" encoding="UTF-8"?>\n',
    '<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/" xmlns:atom="http://www.w3.org/2005/Atom">\n',
    '<channel>\n<title>Generated News &amp; Views</title>\n<link>https://news.example.org/</link>\n',
    '<description>Everything that happened, &#8220;as it happened&#8221;</description>\n<language>en-gb</language>\n',
    '<atom:link href="https://news.example.org/rss.xml" rel="self" type="application/rss+xml"/>\n',
  ];
  let size = parts.reduce((total, part) => total + Buffer.byteLength(part), 0);
  const closing = '</channel>\n</rss>\n';
  let items = 0;
  const start = Date.UTC(2026, 0, 1);
  while (size + Buffer.byteLength(closing) < targetBytes) {
    const n = items++;
    const slug = `/${pick(sections).toLowerCase().replace(/\W+/g, '-')}/2026/${n}`;
    const paragraphs = Array.from(
      { length: 2 + Math.floor(next() * 3) },
      () =>
        `<p>${escapeXml(sentence(12))} <a href="${slug}#more" title="Read &quot;more&quot;">read more</a> &#8217;${escapeXml(sentence(3))}&#8217;&nbsp;&mdash;</p>`,
    );
    const description = `<img src="https://cdn.example.org/img/${n}.jpg" alt="photo ${n}"/>${paragraphs.join('')}`;
    const content = `<figure><img src="/img/${n}-large.jpg"/><figcaption>${sentence(4)}</figcaption></figure>${paragraphs
      .join('')
      .replace(/&#8217;/g, '’')
      .replace(/&nbsp;/g, ' ')
      .replace(/&mdash;/g, '—')}<ul><li>${sentence(3)}</li><li>${sentence(3)}</li></ul>`;
    const date = new Date(start + n * 937_000).toUTCString().replace('GMT', '+0000');
    const categories = Array.from({ length: 1 + Math.floor(next() * 4) }, () => `<category>${escapeXml(pick(sections))}</category>`).join(
      '',
    );
    const item =
      `<item>\n<title>${escapeXml(sentence(6))} &#8211; ${n}</title>\n` +
      `<link>https://news.example.org${slug}</link>\n` +
      `<guid isPermaLink="false">urn:example:item:${n}</guid>\n` +
      `<pubDate>${date}</pubDate>\n<dc:creator>${escapeXml(pick(authors))}</dc:creator>\n${categories}\n` +
      `<description>${escapeXml(description)}</description>\n` +
      `<content:encoded><![CDATA[${content}]]></content:encoded>\n` +
      `<enclosure url="https://cdn.example.org/audio/${n}.mp3?a=1&amp;b=2" length="${1000 + n}" type="audio/mpeg"/>\n` +
      `<media:thumbnail url="https://cdn.example.org/thumb/${n}.jpg" width="140" height="84"/>\n` +
      '</item>\n';
    parts.push(item);
    size += Buffer.byteLength(item);
  }
  parts.push(closing);
  return { xml: parts.join(''), items };
}
