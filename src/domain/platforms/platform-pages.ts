/**
 * What the built-in resolvers read from a platform's answers: pure, over text already fetched.
 */

const channelId = 'UC[A-Za-z0-9_-]{22}';

/**
 * The channel id of a YouTube `@handle` page. The page states it in several places; the canonical
 * link and the channel's RSS link are the ones YouTube has kept stable, the `externalId` of its
 * embedded data the fallback. Linear scans, so a large page costs one pass each.
 */
export function youtubeChannelIdOf(html: string): string | undefined {
  const stated = [
    new RegExp(`<link[^>]+rel="canonical"[^>]+href="https?://(?:www\\.)?youtube\\.com/channel/(${channelId})"`),
    new RegExp(`feeds/videos\\.xml\\?channel_id=(${channelId})`),
    new RegExp(`<meta[^>]+itemprop="(?:channelId|identifier)"[^>]+content="(${channelId})"`),
    new RegExp(`"externalId":"(${channelId})"`),
  ];
  for (const pattern of stated) {
    const found = pattern.exec(html)?.[1];
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Whether a `/.well-known/nodeinfo` answer is a NodeInfo index (https://nodeinfo.diaspora.software/protocol):
 * Mastodon, Pleroma, Misskey, Lemmy, PeerTube, GoToSocial… all publish one, so it tells a fediverse
 * server from any other site with `/@name` paths.
 */
export function isNodeinfoIndex(text: string): boolean {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof json !== 'object' || json === null || !('links' in json) || !Array.isArray(json.links)) return false;
  return json.links.some(
    (link: unknown) =>
      typeof link === 'object' &&
      link !== null &&
      'rel' in link &&
      typeof link.rel === 'string' &&
      link.rel.startsWith('http://nodeinfo.diaspora.software/ns/schema/'),
  );
}
