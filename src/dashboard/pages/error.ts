import type { Assets } from '../assets.js';
import { html, type Html } from '../html.js';
import { page, type Viewer } from '../layout.js';

export function errorPage(assets: Assets, viewer: Viewer | undefined, heading: string, message: string): Html {
  return page(assets, {
    title: heading,
    ...(viewer ? { viewer } : {}),
    body: html`<h1>${heading}</h1><p role="alert">${message}</p><p><a href="/dashboard/feeds">Back to your feeds</a></p>`,
  });
}
