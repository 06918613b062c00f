import t from 'tap';
import { builtinPlatformRules } from '../../../src/domain/platforms/builtin-platform-rules.js';
import { fillTemplate, isPending, platformMatcher } from '../../../src/domain/platforms/platform-match.js';

const match = platformMatcher(builtinPlatformRules);

/** What the table gives for a page: `rule → url` per feed, a pending one filled with `channel_id=UCx`. */
function feedsOf(page: string): string[] {
  return (match(page)?.feeds ?? []).map((feed) =>
    isPending(feed)
      ? `${feed.rule} (${feed.resolver}) → ${fillTemplate(feed.template.url, { ...feed.variables, channel_id: 'UCx' })}`
      : `${feed.rule} → ${feed.url}`,
  );
}

// One case per row, named by the row: page URL → the platform's own feed URLs.
const cases: Record<string, [page: string, feeds: string[]][]> = {
  'youtube-channel': [
    [
      'https://www.youtube.com/channel/UCK8sQmJBp8GCxrOtXWBpyEA',
      ['https://www.youtube.com/feeds/videos.xml?channel_id=UCK8sQmJBp8GCxrOtXWBpyEA'],
    ],
    [
      'https://m.youtube.com/channel/UCK8sQmJBp8GCxrOtXWBpyEA/videos',
      ['https://www.youtube.com/feeds/videos.xml?channel_id=UCK8sQmJBp8GCxrOtXWBpyEA'],
    ],
  ],
  'youtube-handle': [['https://www.youtube.com/@GoogleDevelopers', ['https://www.youtube.com/feeds/videos.xml?channel_id=UCx']]],
  'youtube-user': [['https://youtube.com/user/Google', ['https://www.youtube.com/feeds/videos.xml?user=Google']]],
  'youtube-playlist': [
    [
      'https://www.youtube.com/playlist?list=PL590L5WQmH8fJ54F369BLDSqIwcs-TCfs',
      ['https://www.youtube.com/feeds/videos.xml?playlist_id=PL590L5WQmH8fJ54F369BLDSqIwcs-TCfs'],
    ],
    ['https://www.youtube.com/watch?v=abc&list=PLx&index=2', ['https://www.youtube.com/feeds/videos.xml?playlist_id=PLx']],
  ],
  'reddit-subreddit-sort': [['https://old.reddit.com/r/rss/top/', ['https://old.reddit.com/r/rss/top/.rss']]],
  'reddit-subreddit': [
    ['https://www.reddit.com/r/rss/', ['https://www.reddit.com/r/rss/.rss']],
    ['https://reddit.com/r/rss', ['https://reddit.com/r/rss/.rss']],
  ],
  'reddit-user': [['https://www.reddit.com/u/spez', ['https://www.reddit.com/user/spez/.rss']]],
  'github-releases': [['https://github.com/nodejs/node/releases/tag/v20.0.0', ['https://github.com/nodejs/node/releases.atom']]],
  'github-tags': [['https://github.com/nodejs/node/tags', ['https://github.com/nodejs/node/tags.atom']]],
  'github-commits': [['https://github.com/nodejs/node/commits', ['https://github.com/nodejs/node/commits.atom']]],
  'github-repository': [
    [
      'https://github.com/nodejs/node',
      [
        'https://github.com/nodejs/node/releases.atom',
        'https://github.com/nodejs/node/tags.atom',
        'https://github.com/nodejs/node/commits.atom',
      ],
    ],
  ],
  'github-user': [['https://github.com/torvalds', ['https://github.com/torvalds.atom']]],
  'gitlab-releases': [
    ['https://gitlab.com/gitlab-org/gitlab-shell/-/releases', ['https://gitlab.com/gitlab-org/gitlab-shell/-/releases.atom']],
  ],
  'gitlab-tags': [['https://gitlab.com/inkscape/inkscape/-/tags', ['https://gitlab.com/inkscape/inkscape/-/tags?format=atom']]],
  'gitlab-project': [
    [
      'https://gitlab.com/inkscape/inkscape',
      ['https://gitlab.com/inkscape/inkscape/-/releases.atom', 'https://gitlab.com/inkscape/inkscape/-/tags?format=atom'],
    ],
  ],
  'forgejo-releases': [['https://codeberg.org/forgejo/forgejo/releases', ['https://codeberg.org/forgejo/forgejo/releases.rss']]],
  'forgejo-tags': [['https://gitea.com/gitea/tea/tags', ['https://gitea.com/gitea/tea/tags.rss']]],
  'forgejo-repository': [
    [
      'https://codeberg.org/forgejo/forgejo',
      ['https://codeberg.org/forgejo/forgejo/releases.rss', 'https://codeberg.org/forgejo/forgejo/tags.rss'],
    ],
  ],
  'bluesky-profile': [['https://bsky.app/profile/bsky.app', ['https://bsky.app/profile/bsky.app/rss']]],
  'medium-user': [['https://medium.com/@Medium', ['https://medium.com/feed/@Medium']]],
  'medium-tag': [['https://medium.com/tag/programming/recommended', ['https://medium.com/feed/tag/programming']]],
  'medium-publication': [['https://medium.com/the-story', ['https://medium.com/feed/the-story']]],
  'medium-subdomain': [['https://someone.medium.com/a-post-123', ['https://someone.medium.com/feed']]],
  substack: [['https://astralcodexten.substack.com/p/some-post', ['https://astralcodexten.substack.com/feed']]],
  'tumblr-blog': [['https://staff.tumblr.com/', ['https://staff.tumblr.com/rss']]],
  'tumblr-dashboard-blog': [['https://www.tumblr.com/staff', ['https://staff.tumblr.com/rss']]],
  blogger: [['https://googleblog.blogspot.com/2020/01/post.html', ['https://googleblog.blogspot.com/feeds/posts/default']]],
  'wordpress-com': [['https://example.wordpress.com/2024/05/01/hello/', ['https://example.wordpress.com/feed/']]],
  'stack-overflow-tag': [
    ['https://stackoverflow.com/questions/tagged/typescript', ['https://stackoverflow.com/feeds/tag/typescript']],
    ['https://superuser.com/questions/tagged/linux', ['https://superuser.com/feeds/tag/linux']],
  ],
  'stack-exchange-tag': [['https://unix.stackexchange.com/questions/tagged/bash', ['https://unix.stackexchange.com/feeds/tag/bash']]],
  'arxiv-listing': [['https://arxiv.org/list/cs.AI/recent', ['https://rss.arxiv.org/rss/cs.AI']]],
  'vimeo-channel': [['https://vimeo.com/channels/staffpicks', ['https://vimeo.com/channels/staffpicks/videos/rss']]],
  'vimeo-user': [['https://vimeo.com/someone', ['https://vimeo.com/someone/videos/rss']]],
  'dev-to-tag': [['https://dev.to/t/javascript', ['https://dev.to/feed/tag/javascript']]],
  'dev-to-user': [['https://dev.to/ben', ['https://dev.to/feed/ben']]],
  'pypi-project': [['https://pypi.org/project/requests/', ['https://pypi.org/rss/project/requests/releases.xml']]],
  'letterboxd-user': [['https://letterboxd.com/dave/', ['https://letterboxd.com/dave/rss/']]],
  'hacker-news': [
    ['https://news.ycombinator.com/', ['https://news.ycombinator.com/rss']],
    ['https://news.ycombinator.com/news', ['https://news.ycombinator.com/rss']],
  ],
  'telegram-channel': [
    ['https://t.me/durov', ['https://t.me/s/durov']],
    ['https://t.me/s/durov', ['https://t.me/s/durov']],
  ],
  'activitypub-profile': [['https://mastodon.social/@Gargron', ['https://mastodon.social/@Gargron.rss']]],
  'activitypub-tag': [['https://fosstodon.org/tags/rust', ['https://fosstodon.org/tags/rust.rss']]],
  'lemmy-community': [['https://lemmy.world/c/technology', ['https://lemmy.world/feeds/c/technology.xml']]],
  'lemmy-user': [['https://lemmy.ml/u/someone', ['https://lemmy.ml/feeds/u/someone.xml']]],
};

t.test('every row of the built-in table has its case, and each page gives its feeds', async (t) => {
  t.same(Object.keys(cases).sort(), builtinPlatformRules.map((rule) => rule.name).sort(), 'one case per row');
  for (const [rule, pages] of Object.entries(cases)) {
    for (const [page, feeds] of pages) {
      const resolver = builtinPlatformRules.find((row) => row.name === rule)?.produce[0]?.resolver;
      const expected = feeds.map((feed) => (resolver ? `${rule} (${resolver}) → ${feed}` : `${rule} → ${feed}`));
      t.same(feedsOf(page), expected, `${rule}: ${page}`);
    }
  }
});

t.test('the address a pattern reads keeps its scheme and port where the feed lives on the same host', async (t) => {
  t.same(feedsOf('http://github.com:8443/o/r/tags'), ['github-tags → http://github.com:8443/o/r/tags.atom']);
});

t.test('pages of no platform, and platform pages that have no feed, match no rule', async (t) => {
  for (const page of [
    'https://example.com/blog/',
    'https://www.youtube.com/',
    'https://github.com/o/r/blob/main/README.md',
    'https://t.me/s/',
  ]) {
    t.equal(match(page), undefined, page);
  }
});
