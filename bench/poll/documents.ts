/**
 * The RSS documents of the poll benchmark. Feed `f` at version `v` lists its items `v - count + 1`
 * … `v`, newest first, so each new version adds one item and keeps the others byte for byte (what a
 * real feed does when it publishes).
 */

/** Items in a "changed 100 KB" document: about 2.5 KB each. */
export const itemsPer100Kb = 40;

const paragraph =
  '<p>The council met on Tuesday to discuss the budget for the coming season &amp; the river works. ' +
  'Residents asked about transport, schools and the museum; the &#8220;analysis&#8221; follows below.</p>';

const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function item(origin: string, feed: number, n: number, paragraphs: number): string {
  const link = `${origin}/posts/${feed}/${n}`;
  const description = escapeXml(`<h2>Post ${n} of feed ${feed}</h2>${paragraph.repeat(paragraphs)}`);
  return (
    `<item><title>Post ${n} of feed ${feed}</title><link>${link}</link><guid>${link}</guid>` +
    `<pubDate>${new Date(Date.UTC(2026, 0, 1) + n * 60_000).toUTCString()}</pubDate>` +
    `<dc:creator>Ana Lima</dc:creator><category>News</category><description>${description}</description></item>`
  );
}

/** Feed `feed` at `version`, with its `count` newest items of `paragraphs` paragraphs (10: ~2.6 KB). */
export function feedDocument(origin: string, feed: number, version: number, count: number, paragraphs = 10): string {
  const items: string[] = [];
  for (let n = version; n > version - count && n > 0; n--) items.push(item(origin, feed, n, paragraphs));
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    '<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>' +
    `<title>Feed ${feed}</title><link>${origin}/${feed}/</link><description>Benchmark feed ${feed}</description>` +
    `${items.join('')}</channel></rss>`
  );
}
