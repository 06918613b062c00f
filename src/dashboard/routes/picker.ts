import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { createFeed } from '../../app/create-feed.js';
import { createSnapshotCache, snapshotItems, type PageSnapshot } from '../../app/page-snapshot.js';
import { itemFieldSelectors, splitFieldSelector } from '../../domain/page-selectors.js';
import { parseRenderMode, type RenderMode } from '../../domain/render-mode.js';
import type { StoredItem } from '../../domain/stored-item.js';
import { statusOf } from '../../web/status.js';
import { sendPage, type DashboardOptions } from '../context.js';
import { fieldErrorOf, type FieldError } from '../forms.js';
import { html } from '../html.js';
import { itemList } from '../pages/items.js';
import { countLine, emptySelectorForm, pickerPage, selectorsOf, type PickerView, type SelectorForm } from '../pages/picker.js';
import { fieldOf, principalOf, viewerOf, type FormBody } from '../request.js';
import { sanitiseSnapshot, snapshotPolicy } from '../snapshot-html.js';

/** The refused field as the API names it → the picker's input. */
const pickerInputs: Readonly<Record<string, string>> = {
  url: 'url',
  render: 'render',
  ...Object.fromEntries(['item', ...itemFieldSelectors].map((name) => [`selectors.${name}`, name])),
};

const selectorFormOf = (body: FormBody): SelectorForm =>
  Object.fromEntries(Object.keys(emptySelectorForm).map((name) => [name, fieldOf(body, name)])) as SelectorForm;

/** `render` as sent; empty is the default. */
const renderOf = (text: string): RenderMode => (text === '' ? 'auto' : parseRenderMode(text));

const snapshotPath = (token: string, url: string, render: RenderMode): string =>
  `/dashboard/feeds/pick/snapshot?${new URLSearchParams({ token, url, render }).toString()}`;

/** What the live list needs of a refusal: the input it concerns and the use case's message. */
function refusalOf(error: unknown): FieldError {
  return fieldErrorOf(error, 'item', pickerInputs);
}

/**
 * "Pick items on the page" (docs/selectors.md): a snapshot of the page as a create would read it,
 * shown sanitised in a frame that runs nothing, selectors picked on it, the items they give, and a
 * Save that creates the feed through the same use case as `POST /v1/feeds`.
 */
export const pickerRoutes: FastifyPluginAsync<DashboardOptions> = async (app, { deps, assets }) => {
  const secretKey = deps.settings.secretKey;
  // One per process: a person's next requests may reach another process, which takes the page again.
  const snapshots = createSnapshotCache(deps);

  const snapshotOf = (request: FastifyRequest, token: string, url: string, render: RenderMode): Promise<PageSnapshot> =>
    snapshots.get(principalOf(request), token, { url, render });

  const show = (request: FastifyRequest, reply: FastifyReply, view: Omit<PickerView, 'viewer'>, status = 200): FastifyReply =>
    sendPage(reply, pickerPage(assets, { viewer: viewerOf(request, secretKey), ...view }), status);

  /** The page for `url`, its snapshot taken now so a page that cannot be read says so on the form. */
  const open = async (
    request: FastifyRequest,
    reply: FastifyReply,
    typed: { url: string; render: string; selectors: SelectorForm; token?: string },
    extra: { items?: StoredItem[]; error?: FieldError } = {},
    status = 200,
  ): Promise<FastifyReply> => {
    const token = typed.token || snapshots.newToken();
    try {
      const render = renderOf(typed.render);
      const snapshot = await snapshotOf(request, token, typed.url, render);
      const view = {
        url: typed.url,
        token,
        render: snapshot.render,
        rendered: snapshot.rendered && render !== 'always',
        selectors: typed.selectors,
        snapshotPath: snapshotPath(token, typed.url, snapshot.render),
      };
      return show(request, reply, { ...view, ...extra }, status);
    } catch (error) {
      const refused = fieldErrorOf(error, 'url', { render: 'render' });
      return show(
        request,
        reply,
        { url: typed.url, render: typed.render || 'auto', selectors: typed.selectors, error: refused },
        statusOf.validation_failed,
      );
    }
  };

  // The picker frames its snapshot: its pages may frame our own origin, which no other page may.
  const framing = {
    onSend: async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const policy = reply.getHeader('content-security-policy');
      if (typeof policy === 'string') void reply.header('content-security-policy', `${policy}; frame-src 'self'`);
      return payload;
    },
  };

  app.get<{ Querystring: { url?: string; render?: string } }>('/feeds/pick', framing, async (request, reply) => {
    const url = request.query.url ?? '';
    const render = request.query.render ?? 'auto';
    if (url.trim() === '') return show(request, reply, { url: '', render, selectors: emptySelectorForm });
    return open(request, reply, { url, render, selectors: emptySelectorForm });
  });

  // The add-feed form's "Pick items on the page": its typed address (and render) to the picker, by
  // a redirect, so the form's token never lands in an address.
  app.post<{ Body: FormBody }>('/feeds/pick/start', async (request, reply) => {
    const query = new URLSearchParams({ url: fieldOf(request.body, 'url'), render: fieldOf(request.body, 'render') || 'auto' });
    return reply.redirect(`/dashboard/feeds/pick?${query.toString()}`, 303);
  });

  // The frame's document: the snapshot, sanitised, under a policy of its own (snapshotPolicy).
  app.get<{ Querystring: { token?: string; url?: string; render?: string } }>(
    '/feeds/pick/snapshot',
    {
      onSend: async (_request, reply, payload) => {
        void reply.header('content-security-policy', snapshotPolicy).header('cache-control', 'no-store');
        return payload;
      },
    },
    async (request, reply) => {
      const { token = '', url = '', render = 'auto' } = request.query;
      let body: string;
      try {
        const snapshot = await snapshotOf(request, token, url, renderOf(render));
        body = sanitiseSnapshot(snapshot.body, snapshot.contentType);
      } catch (error) {
        body = html`<!doctype html><p>${refusalOf(error).message}</p>`.text;
      }
      return reply.type('text/html; charset=utf-8').send(body);
    },
  );

  // The live list: the items the typed selectors give on the snapshot, read by the feed's own extractor.
  app.post<{ Body: FormBody }>('/feeds/pick/items', async (request, reply) => {
    const selectors = selectorFormOf(request.body);
    const highlight = Object.fromEntries(
      (['item', 'title', 'date', 'image'] as const).map((name) => {
        const text = selectors[name].trim();
        return [name, text === '' ? null : name === 'item' ? text : splitFieldSelector(text).css];
      }),
    );
    let items: StoredItem[] = [];
    let error: FieldError | null = null;
    try {
      const snapshot = await snapshotOf(
        request,
        fieldOf(request.body, 'token'),
        fieldOf(request.body, 'url'),
        renderOf(fieldOf(request.body, 'render')),
      );
      items = await snapshotItems(deps, snapshot, selectorsOf(selectors));
    } catch (caught) {
      error = refusalOf(caught);
    }
    const status = countLine(items.length);
    const list = itemList('pick-items', items, 'Items these selectors give').text;
    return reply.header('cache-control', 'no-store').send({ count: items.length, status, list, error, highlight });
  });

  // "Show items" (the list without the script) and "Save feed".
  app.post<{ Body: FormBody }>('/feeds/pick', framing, async (request, reply) => {
    const typed = {
      url: fieldOf(request.body, 'url'),
      render: fieldOf(request.body, 'render'),
      selectors: selectorFormOf(request.body),
      token: fieldOf(request.body, 'token'),
    };
    try {
      const render = renderOf(typed.render);
      const selectors = selectorsOf(typed.selectors);
      if (fieldOf(request.body, 'action') === 'preview') {
        // The page's address typed on an empty picker: the page, nothing picked yet.
        if (typed.selectors.item.trim() === '') return await open(request, reply, typed);
        const snapshot = await snapshotOf(request, typed.token || snapshots.newToken(), typed.url, render);
        return await open(request, reply, typed, { items: await snapshotItems(deps, snapshot, selectors) });
      }
      const { feed } = await createFeed(deps, principalOf(request), { url: typed.url, selectors, render });
      return reply.redirect(`/dashboard/feeds/${feed.id}`, 303);
    } catch (error) {
      return open(request, reply, typed, { error: refusalOf(error) }, statusOf.validation_failed);
    }
  });
};
