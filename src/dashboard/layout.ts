import type { Asset, Assets } from './assets.js';
import { html, type Fragment, type Html } from './html.js';

export type Section = 'feeds' | 'bundles' | 'keys' | 'webhooks';

const sections: readonly { id: Section; label: string; path: string }[] = [
  { id: 'feeds', label: 'Feeds', path: '/dashboard/feeds' },
  { id: 'bundles', label: 'Bundles', path: '/dashboard/bundles' },
  { id: 'keys', label: 'API keys', path: '/dashboard/keys' },
  { id: 'webhooks', label: 'Webhooks', path: '/dashboard/webhooks' },
];

/** Who is signed in, as every page's header shows it, and the token its forms carry. */
export interface Viewer {
  email: string;
  accountId: string;
  csrf: string;
}

export interface PageOptions {
  title: string;
  section?: Section;
  viewer?: Viewer;
  /** Feed ids whose `feed_update` refreshes the page's `[data-live]` regions; `*` for every feed. */
  liveFeeds?: readonly string[];
  /** Scripts of this page only, after the dashboard's own (the picker's). */
  scripts?: readonly Asset[];
  body: Fragment;
}

/** The hidden field every state-changing form of a signed-in page carries. */
export const csrfField = (viewer: Viewer): Html => html`<input type="hidden" name="_csrf" value="${viewer.csrf}">`;

function header(viewer: Viewer, current: Section | undefined): Html {
  const links = sections.map(
    (section) => html`<li><a href="${section.path}"${section.id === current ? html` aria-current="page"` : ''}>${section.label}</a></li>`,
  );
  return html`<header class="top">
  <a class="brand" href="/dashboard/feeds">feedmill</a>
  <nav aria-label="Main"><ul>${links}</ul></nav>
  <div class="account">
    <span class="muted">${viewer.email} · ${viewer.accountId}</span>
    <form method="post" action="/dashboard/sign-out">${csrfField(viewer)}<button type="submit" class="secondary">Sign out</button></form>
    <form method="post" action="/dashboard/sign-out-everywhere">${csrfField(viewer)}<button type="submit" class="secondary">Sign out everywhere</button></form>
  </div>
</header>`;
}

export function page(assets: Assets, options: PageOptions): Html {
  const live = options.liveFeeds?.length ? html` data-live-feeds="${options.liveFeeds.join(' ')}"` : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · feedmill</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assets.css.path}">
<script type="module" src="${assets.js.path}"></script>
${(options.scripts ?? []).map((script) => html`<script type="module" src="${script.path}"></script>\n`)}</head>
<body>
<a class="skip" href="#content">Skip to content</a>
${options.viewer ? header(options.viewer, options.section) : html`<header class="top"><span class="brand">feedmill</span></header>`}
<main id="content"${live}>
${options.body}
</main>
</body>
</html>`;
}
