import { readPlatformRules } from './read-platform-rules.js';

const youtube = '{(www|m).}?youtube.com';
const reddit = '{(www|old|new|np).}?reddit.com';
const github = '{www.}?github.com';
const forgejo = '(codeberg.org|gitea.com)';
const stackExchangeSites = '{(www|ru|pt|es|ja).}?(stackoverflow|superuser|serverfault|askubuntu|mathoverflow).(com|net)';
const optionalSlash = '{/}?';

/**
 * The built-in platform rules: the platform's own feed of each kind of page, never a third-party bridge.
 * First match wins, so the narrow rows of a host come before its broad ones, and the rows recognised
 * by path shape alone on any host (ActivityPub servers) come last. docs/discovery.md lists them;
 * test/domain/platforms/builtin-platform-rules.test.ts has a case per row.
 */
export const builtinPlatformRules = readPlatformRules(
  [
    // YouTube: www.youtube.com/feeds/videos.xml takes a channel id, a legacy user name or a playlist id.
    {
      name: 'youtube-channel',
      platform: 'YouTube',
      match: { hostname: youtube, pathname: '/channel/:id(UC[A-Za-z0-9_-]+){/*}?' },
      produce: [{ url: 'https://www.youtube.com/feeds/videos.xml?channel_id={id}', format: 'atom' }],
    },
    {
      name: 'youtube-handle',
      platform: 'YouTube',
      match: { hostname: youtube, pathname: '/@:handle{/*}?' },
      produce: [{ url: 'https://www.youtube.com/feeds/videos.xml?channel_id={channel_id}', format: 'atom', resolver: 'youtube-handle' }],
    },
    {
      name: 'youtube-user',
      platform: 'YouTube',
      match: { hostname: youtube, pathname: '/user/:name{/*}?' },
      produce: [{ url: 'https://www.youtube.com/feeds/videos.xml?user={name}', format: 'atom' }],
    },
    {
      name: 'youtube-playlist',
      platform: 'YouTube',
      match: { hostname: youtube, pathname: '/(playlist|watch)', search: '{*&}?list=:list([^&]+){&*}?' },
      produce: [{ url: 'https://www.youtube.com/feeds/videos.xml?playlist_id={list}', format: 'atom' }],
    },
    // Reddit: any listing with `.rss` appended, on www. or old. alike.
    {
      name: 'reddit-subreddit-sort',
      platform: 'Reddit',
      match: { hostname: reddit, pathname: '/r/:sub/:sort(hot|new|rising|top|controversial)' + optionalSlash },
      produce: [{ url: '{origin}/r/{sub}/{sort}/.rss', format: 'atom' }],
    },
    {
      name: 'reddit-subreddit',
      platform: 'Reddit',
      match: { hostname: reddit, pathname: '/r/:sub' + optionalSlash },
      produce: [{ url: '{origin}/r/{sub}/.rss', format: 'atom' }],
    },
    {
      name: 'reddit-user',
      platform: 'Reddit',
      match: { hostname: reddit, pathname: '/(user|u)/:name' + optionalSlash },
      produce: [{ url: '{origin}/user/{name}/.rss', format: 'atom' }],
    },
    // GitHub: Atom feeds beside a repository's pages; `commits.atom` follows the default branch.
    {
      name: 'github-releases',
      platform: 'GitHub',
      match: { hostname: github, pathname: '/:owner/:repo/releases{/*}?' },
      produce: [{ url: '{origin}/{owner}/{repo}/releases.atom', format: 'atom' }],
    },
    {
      name: 'github-tags',
      platform: 'GitHub',
      match: { hostname: github, pathname: '/:owner/:repo/tags' + optionalSlash },
      produce: [{ url: '{origin}/{owner}/{repo}/tags.atom', format: 'atom' }],
    },
    {
      name: 'github-commits',
      platform: 'GitHub',
      match: { hostname: github, pathname: '/:owner/:repo/commits' + optionalSlash },
      produce: [{ url: '{origin}/{owner}/{repo}/commits.atom', format: 'atom' }],
    },
    {
      name: 'github-repository',
      platform: 'GitHub',
      match: { hostname: github, pathname: '/:owner/:repo' + optionalSlash },
      produce: [
        { url: '{origin}/{owner}/{repo}/releases.atom', format: 'atom' },
        { url: '{origin}/{owner}/{repo}/tags.atom', format: 'atom' },
        { url: '{origin}/{owner}/{repo}/commits.atom', format: 'atom' },
      ],
    },
    {
      name: 'github-user',
      platform: 'GitHub',
      match: { hostname: github, pathname: '/:user' + optionalSlash },
      produce: [{ url: '{origin}/{user}.atom', format: 'atom' }],
    },
    // GitLab: `/-/releases.atom` (GitLab 17) and the tags list as Atom.
    {
      name: 'gitlab-releases',
      platform: 'GitLab',
      match: { hostname: 'gitlab.com', pathname: '/:project(.+?)/-/releases' + optionalSlash },
      produce: [{ url: '{origin}/{project}/-/releases.atom', format: 'atom' }],
    },
    {
      name: 'gitlab-tags',
      platform: 'GitLab',
      match: { hostname: 'gitlab.com', pathname: '/:project(.+?)/-/tags' + optionalSlash },
      produce: [{ url: '{origin}/{project}/-/tags?format=atom', format: 'atom' }],
    },
    {
      name: 'gitlab-project',
      platform: 'GitLab',
      match: { hostname: 'gitlab.com', pathname: '/:owner/:project' + optionalSlash },
      produce: [
        { url: '{origin}/{owner}/{project}/-/releases.atom', format: 'atom' },
        { url: '{origin}/{owner}/{project}/-/tags?format=atom', format: 'atom' },
      ],
    },
    // Forgejo and Gitea (Codeberg runs Forgejo): `.rss` beside releases and tags.
    {
      name: 'forgejo-releases',
      platform: 'Forgejo',
      match: { hostname: forgejo, pathname: '/:owner/:repo/releases{/*}?' },
      produce: [{ url: '{origin}/{owner}/{repo}/releases.rss' }],
    },
    {
      name: 'forgejo-tags',
      platform: 'Forgejo',
      match: { hostname: forgejo, pathname: '/:owner/:repo/tags' + optionalSlash },
      produce: [{ url: '{origin}/{owner}/{repo}/tags.rss' }],
    },
    {
      name: 'forgejo-repository',
      platform: 'Forgejo',
      match: { hostname: forgejo, pathname: '/:owner/:repo' + optionalSlash },
      produce: [{ url: '{origin}/{owner}/{repo}/releases.rss' }, { url: '{origin}/{owner}/{repo}/tags.rss' }],
    },
    {
      name: 'bluesky-profile',
      platform: 'Bluesky',
      match: { hostname: 'bsky.app', pathname: '/profile/:handle' + optionalSlash },
      produce: [{ url: '{origin}/profile/{handle}/rss' }],
    },
    // Medium: medium.com/feed/ before the user, tag or publication; a custom subdomain has /feed.
    {
      name: 'medium-user',
      platform: 'Medium',
      match: { hostname: 'medium.com', pathname: '/@:user{/}?' },
      produce: [{ url: '{origin}/feed/@{user}' }],
    },
    {
      name: 'medium-tag',
      platform: 'Medium',
      match: { hostname: 'medium.com', pathname: '/tag/:tag{/*}?' },
      produce: [{ url: '{origin}/feed/tag/{tag}' }],
    },
    {
      name: 'medium-publication',
      platform: 'Medium',
      match: { hostname: 'medium.com', pathname: '/:publication' + optionalSlash },
      produce: [{ url: '{origin}/feed/{publication}' }],
    },
    {
      name: 'medium-subdomain',
      platform: 'Medium',
      match: { hostname: ':name.medium.com' },
      produce: [{ url: '{origin}/feed' }],
    },
    { name: 'substack', platform: 'Substack', match: { hostname: ':name.substack.com' }, produce: [{ url: '{origin}/feed' }] },
    {
      name: 'tumblr-dashboard-blog',
      platform: 'Tumblr',
      match: { hostname: 'www.tumblr.com', pathname: '/:name([a-z0-9-]+){/*}?' },
      produce: [{ url: 'https://{name}.tumblr.com/rss' }],
    },
    {
      name: 'tumblr-blog',
      platform: 'Tumblr',
      match: { hostname: ':name([a-z0-9-]+).tumblr.com' },
      produce: [{ url: '{origin}/rss' }],
    },
    {
      name: 'blogger',
      platform: 'Blogger',
      match: { hostname: ':name.blogspot.com' },
      produce: [{ url: '{origin}/feeds/posts/default', format: 'atom' }],
    },
    {
      name: 'wordpress-com',
      platform: 'WordPress.com',
      match: { hostname: ':name.wordpress.com' },
      produce: [{ url: '{origin}/feed/' }],
    },
    {
      name: 'stack-overflow-tag',
      platform: 'Stack Exchange',
      match: { hostname: stackExchangeSites, pathname: '/questions/tagged/:tag' + optionalSlash },
      produce: [{ url: '{origin}/feeds/tag/{tag}', format: 'atom' }],
    },
    {
      name: 'stack-exchange-tag',
      platform: 'Stack Exchange',
      match: { hostname: ':site.stackexchange.com', pathname: '/questions/tagged/:tag' + optionalSlash },
      produce: [{ url: '{origin}/feeds/tag/{tag}', format: 'atom' }],
    },
    {
      name: 'arxiv-listing',
      platform: 'arXiv',
      match: { hostname: '{www.}?arxiv.org', pathname: '/list/:category{/*}?' },
      produce: [{ url: 'https://rss.arxiv.org/rss/{category}' }],
    },
    {
      name: 'vimeo-channel',
      platform: 'Vimeo',
      match: { hostname: '{www.}?vimeo.com', pathname: '/channels/:name' + optionalSlash },
      produce: [{ url: '{origin}/channels/{name}/videos/rss' }],
    },
    {
      // Numeric paths are videos; a user's address starts with a letter.
      name: 'vimeo-user',
      platform: 'Vimeo',
      match: { hostname: '{www.}?vimeo.com', pathname: '/:user([A-Za-z][A-Za-z0-9_-]*)' + optionalSlash },
      produce: [{ url: '{origin}/{user}/videos/rss' }],
    },
    {
      name: 'dev-to-tag',
      platform: 'DEV',
      match: { hostname: 'dev.to', pathname: '/t/:tag' + optionalSlash },
      produce: [{ url: '{origin}/feed/tag/{tag}' }],
    },
    {
      name: 'dev-to-user',
      platform: 'DEV',
      match: { hostname: 'dev.to', pathname: '/:user' + optionalSlash },
      produce: [{ url: '{origin}/feed/{user}' }],
    },
    {
      name: 'pypi-project',
      platform: 'PyPI',
      match: { hostname: 'pypi.org', pathname: '/project/:name{/*}?' },
      produce: [{ url: '{origin}/rss/project/{name}/releases.xml' }],
    },
    {
      name: 'letterboxd-user',
      platform: 'Letterboxd',
      match: { hostname: 'letterboxd.com', pathname: '/:user' + optionalSlash },
      produce: [{ url: '{origin}/{user}/rss/' }],
    },
    {
      // The front page's own feed; hnrss.org is a third party's.
      name: 'hacker-news',
      platform: 'Hacker News',
      match: { hostname: 'news.ycombinator.com', pathname: '{/news}?{/}?' },
      produce: [{ url: '{origin}/rss' }],
    },
    {
      // A public channel's server-rendered preview (t.me/s/NAME), read by the built-in extractor.
      name: 'telegram-channel',
      platform: 'Telegram',
      match: { hostname: '(t|telegram).me', pathname: '{/s}?/:name([A-Za-z][A-Za-z0-9_]{3,})' + optionalSlash },
      produce: [{ url: '{origin}/s/{name}', format: 'page', extractor: 'telegram-channel' }],
    },
    // Recognised by path shape on any host, offered only once the host shows it speaks ActivityPub.
    {
      name: 'activitypub-profile',
      platform: 'ActivityPub',
      match: { protocol: 'http{s}?', pathname: '/@:user([A-Za-z0-9_-]+)' + optionalSlash },
      produce: [{ url: '{origin}/@{user}.rss', resolver: 'activitypub' }],
    },
    {
      name: 'activitypub-tag',
      platform: 'ActivityPub',
      match: { protocol: 'http{s}?', pathname: '/tags/:tag' + optionalSlash },
      produce: [{ url: '{origin}/tags/{tag}.rss', resolver: 'activitypub' }],
    },
    {
      name: 'lemmy-community',
      platform: 'Lemmy',
      match: { protocol: 'http{s}?', pathname: '/c/:name([A-Za-z0-9_]+)' + optionalSlash },
      produce: [{ url: '{origin}/feeds/c/{name}.xml', resolver: 'activitypub' }],
    },
    {
      name: 'lemmy-user',
      platform: 'Lemmy',
      match: { protocol: 'http{s}?', pathname: '/u/:name([A-Za-z0-9_]+)' + optionalSlash },
      produce: [{ url: '{origin}/feeds/u/{name}.xml', resolver: 'activitypub' }],
    },
  ],
  'the built-in platform rules',
);
