import type { FastifyPluginAsync } from 'fastify';
import { createFeed, previewFeed } from '../../app/create-feed.js';
import { previewFeedFilters } from '../../app/filter-preview.js';
import { discoverFeeds } from '../../app/discover-feeds.js';
import { parseDiscoverUrl } from '../../app/discover-url.js';
import { refreshNow } from '../../app/refresh-now.js';
import { deleteFeed } from '../../app/delete-feed.js';
import { getFeedSettings, updateFeedSettings } from '../../app/feed-settings.js';
import { getFeed } from '../../app/get-feed.js';
import { previewArticle } from '../../app/preview-article.js';
import { listFeeds } from '../../app/list-feeds.js';
import { updateFeed } from '../../app/update-feed.js';
import { hostedFeedUrl } from '../../domain/hosted-urls.js';
import { statusOf } from '../../web/status.js';
import { FeedmillError, fieldRefusal } from '../../domain/errors.js';
import { parseItemSort, type ItemSort } from '../../domain/feed.js';
import { parseRenderMode } from '../../domain/render-mode.js';
import { isKeywordSourceUrl, knownRegions } from '../../domain/keyword-source.js';
import { pageLimits } from '../../domain/pagination.js';
import { fieldErrorOf } from '../forms.js';
import { confirmPage } from '../pages/confirm.js';
import { feedPage, type FeedView } from '../pages/feed.js';
import { keepBlockFormFrom, keepBlockInputs, keepBlockOf } from '../pages/keep-block.js';
import { feedsPage } from '../pages/feeds.js';
import { addFeedFormFrom, addFeedInputOf, addFeedRefusal, isPlainAddress, type AddFeedForm } from '../add-feed-form.js';
import {
  fetchOptionsFormFrom,
  fetchOptionsOf,
  passwordOf,
  selectorsFormFrom,
  selectorsOf,
  sourceOptionInputs,
} from '../source-options-form.js';
import { sendPage, type DashboardOptions } from '../context.js';
import { fieldOf, principalOf, viewerOf, type FormBody } from '../request.js';
import { expectedMessage } from '../../domain/field-message.js';

type IdParams = { Params: { id: string } };

/**
 * `full_text_rules` as the form typed them, for the use case to check: empty fields are left out,
 * and so are blank lines of the remove selectors; nothing typed clears the rules (null).
 */
function fullTextRulesOf(form: { fullTextContent: string; fullTextRemove: string }): { content?: string; remove?: string[] } | null {
  const content = form.fullTextContent.trim();
  const remove = form.fullTextRemove
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (content === '' && remove.length === 0) return null;
  return { ...(content ? { content } : {}), ...(remove.length > 0 ? { remove } : {}) };
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });
/** The region picker: every known region by its English name, e.g. "Brazil (Portuguese)". */
const regions = knownRegions
  .map((code) => {
    const [country = '', lang = ''] = code.split(':');
    return { value: code, label: `${regionNames.of(country) ?? country} (${languageNames.of(lang) ?? lang})` };
  })
  .sort((a, b) => a.label.localeCompare(b.label));

export const feedRoutes: FastifyPluginAsync<DashboardOptions> = async (app, { deps, assets }) => {
  const secretKey = deps.settings.secretKey;

  const renderFeeds = async (
    request: Parameters<typeof principalOf>[0],
    form?: AddFeedForm,
    offset = 0,
  ): Promise<ReturnType<typeof feedsPage>> => {
    const pageSize = pageLimits.maxLimit;
    const list = await listFeeds(deps, principalOf(request), { limit: pageSize, offset });
    const view = { viewer: viewerOf(request, secretKey), feeds: list.data, total: list.total, offset, pageSize, regions };
    return feedsPage(assets, { ...view, ...(form ? { form } : {}) });
  };

  app.get('/', async (_request, reply) => reply.redirect('/dashboard/feeds', 303));
  app.get<{ Querystring: { offset?: string } }>('/feeds', async (request, reply) => {
    const offset = Number(request.query.offset ?? 0);
    return sendPage(reply, await renderFeeds(request, undefined, Number.isSafeInteger(offset) && offset > 0 ? offset : 0));
  });

  // One form posts both "Preview" and "Add feed" (the button pressed is `action`): everything typed
  // stays in the form but the password, and a refusal is shown next to the field it concerns.
  app.post<{ Body: FormBody }>('/feeds', async (request, reply) => {
    const form = addFeedFormFrom(request.body);
    try {
      const input = addFeedInputOf(form, passwordOf(request.body));
      if (fieldOf(request.body, 'action') === 'preview') {
        // The feeds found at the address are offered only for a plain address: with selectors they
        // alone decide, and discovery would fetch without the fetch options the source needs.
        if (form.url !== undefined && isPlainAddress(form))
          form.candidates = (await discoverFeeds(deps, parseDiscoverUrl(form.url))).candidates;
        const preview = await previewFeed(deps, input);
        return sendPage(reply, await renderFeeds(request, { ...form, preview }));
      }
      const { feed } = await createFeed(deps, principalOf(request), input);
      return reply.redirect(`/dashboard/feeds/${feed.id}`, 303);
    } catch (error) {
      return sendPage(reply, await renderFeeds(request, { ...form, error: addFeedRefusal(error, form) }), statusOf.validation_failed);
    }
  });

  const renderFeed = async (
    request: Parameters<typeof principalOf>[0],
    id: string,
    sort: ItemSort | undefined,
    extra: Partial<FeedView> = {},
  ) => {
    const principal = principalOf(request);
    const [feed, settings] = await Promise.all([getFeed(deps, principal, id, sort), getFeedSettings(deps, principal, id)]);
    const hostedUrl = hostedFeedUrl(deps.settings.publicUrl, feed.feed.id);
    const pageSource = !isKeywordSourceUrl(deps.settings.publicUrl, feed.feed.sourceUrl);
    return feedPage(assets, {
      viewer: viewerOf(request, secretKey),
      feed,
      hostedUrl,
      settings,
      sort: sort ?? settings.sort,
      ...extra,
      pageSource,
    });
  };

  app.get<IdParams & { Querystring: { sort?: string; saved?: string; refreshed?: string; new?: string; changed?: string } }>(
    '/feeds/:id',
    async (request, reply) => {
      const { query } = request;
      const sort = query.sort === 'date' || query.sort === 'last_added' ? query.sort : undefined;
      const refreshed =
        query.refreshed !== undefined
          ? `Refreshed: ${query.refreshed}, ${Number(query.new ?? 0)} new, ${Number(query.changed ?? 0)} changed.`
          : undefined;
      const notice = query.saved !== undefined ? 'Saved.' : refreshed;
      return sendPage(reply, await renderFeed(request, request.params.id, sort, notice ? { notice } : {}));
    },
  );

  app.post<IdParams & { Body: FormBody }>('/feeds/:id', async (request, reply) => {
    const edit = {
      title: fieldOf(request.body, 'title'),
      description: fieldOf(request.body, 'description'),
      icon: fieldOf(request.body, 'icon'),
    };
    try {
      await updateFeed(deps, principalOf(request), request.params.id, edit);
      return reply.redirect(`/dashboard/feeds/${request.params.id}?saved`, 303);
    } catch (error) {
      const refused = fieldErrorOf(error, 'title', { description: 'description', icon: 'icon' });
      const page = await renderFeed(request, request.params.id, undefined, { edit: { ...edit, error: refused } });
      return sendPage(reply, page, statusOf.validation_failed);
    }
  });

  app.post<IdParams & { Body: FormBody }>('/feeds/:id/settings', async (request, reply) => {
    const typed = {
      customAuthor: fieldOf(request.body, 'customAuthor'),
      sort: fieldOf(request.body, 'sort'),
      minInterval: fieldOf(request.body, 'minInterval').trim(),
      render: fieldOf(request.body, 'render'),
      fullText: fieldOf(request.body, 'fullText') === 'on',
      fullTextContent: fieldOf(request.body, 'fullTextContent'),
      fullTextRemove: fieldOf(request.body, 'fullTextRemove'),
    };
    const fullTextRules = fullTextRulesOf(typed);
    try {
      // Preview reads the latest item's page with the rules as typed, and saves nothing.
      if (fieldOf(request.body, 'action') === 'preview') {
        const articlePreview = await previewArticle(deps, principalOf(request), request.params.id, fullTextRules);
        return sendPage(reply, await renderFeed(request, request.params.id, undefined, { settingsForm: typed, articlePreview }));
      }
      const minIntervalSeconds = typed.minInterval === '' ? null : Number(typed.minInterval);
      if (Number.isNaN(minIntervalSeconds)) {
        throw fieldRefusal('min_interval', expectedMessage('min_interval', 'a whole number of seconds', { value: typed.minInterval }));
      }
      await updateFeedSettings(deps, principalOf(request), request.params.id, {
        customAuthor: typed.customAuthor || null,
        sort: parseItemSort(typed.sort),
        minIntervalSeconds,
        fullText: typed.fullText,
        fullTextRules,
        ...(typed.render ? { render: parseRenderMode(typed.render) } : {}),
      });
      return reply.redirect(`/dashboard/feeds/${request.params.id}?saved`, 303);
    } catch (error) {
      const refused = fieldErrorOf(error, 'customAuthor', {
        sort: 'sort',
        min_interval: 'minInterval',
        render: 'render',
        'full_text_rules.content': 'fullTextContent',
        'full_text_rules.remove': 'fullTextRemove',
      });
      const page = await renderFeed(request, request.params.id, undefined, { settingsForm: { ...typed, error: refused } });
      return sendPage(reply, page, statusOf.validation_failed);
    }
  });

  // Selectors and fetch options are forms of their own, through the same use case as PATCH
  // /v1/feeds/:id/settings: "clear" sends null, which removes them.
  app.post<IdParams & { Body: FormBody }>('/feeds/:id/selectors', async (request, reply) => {
    const form = selectorsFormFrom(request.body);
    try {
      const selectors = fieldOf(request.body, 'action') === 'clear' ? null : selectorsOf(form);
      await updateFeedSettings(deps, principalOf(request), request.params.id, { selectors });
      return reply.redirect(`/dashboard/feeds/${request.params.id}?saved`, 303);
    } catch (error) {
      // A source failure (selectors that find nothing) concerns the selectors as a whole: beside `item`.
      const refused = fieldErrorOf(error, 'selectors.item', sourceOptionInputs);
      const page = await renderFeed(request, request.params.id, undefined, { selectorsForm: { form, error: refused } });
      return sendPage(reply, page, statusOf.validation_failed);
    }
  });

  app.post<IdParams & { Body: FormBody }>('/feeds/:id/fetch', async (request, reply) => {
    const form = fetchOptionsFormFrom(request.body);
    try {
      const fetch = fieldOf(request.body, 'action') === 'clear' ? null : fetchOptionsOf(form, passwordOf(request.body));
      await updateFeedSettings(deps, principalOf(request), request.params.id, { fetch });
      return reply.redirect(`/dashboard/feeds/${request.params.id}?saved`, 303);
    } catch (error) {
      const refused = fieldErrorOf(error, 'fetch.user_agent', sourceOptionInputs);
      const page = await renderFeed(request, request.params.id, undefined, { fetchForm: { form, error: refused } });
      return sendPage(reply, page, statusOf.validation_failed);
    }
  });

  app.post<IdParams>('/feeds/:id/refresh', async (request, reply) => {
    try {
      const result = await refreshNow(deps, principalOf(request), request.params.id);
      const query = new URLSearchParams({ refreshed: result.outcome, new: String(result.itemsNew), changed: String(result.itemsChanged) });
      return reply.redirect(`/dashboard/feeds/${request.params.id}?${query.toString()}`, 303);
    } catch (error) {
      if (!(error instanceof FeedmillError) || error.code !== 'refresh_throttled') throw error;
      void reply.header('retry-after', String(error.details.retryAfter ?? ''));
      return sendPage(reply, await renderFeed(request, request.params.id, undefined, { error: error.message }), statusOf.refresh_throttled);
    }
  });

  app.post<IdParams & { Body: FormBody }>('/feeds/:id/pause', async (request, reply) => {
    await updateFeedSettings(deps, principalOf(request), request.params.id, { paused: fieldOf(request.body, 'paused') === 'true' });
    return reply.redirect(`/dashboard/feeds/${request.params.id}?saved`, 303);
  });

  app.post<IdParams & { Body: FormBody }>('/feeds/:id/filters', async (request, reply) => {
    const form = keepBlockFormFrom(request.body);
    try {
      const filters = keepBlockOf(form);
      if (fieldOf(request.body, 'action') === 'preview') {
        const preview = await previewFeedFilters(deps, principalOf(request), request.params.id, filters);
        return sendPage(reply, await renderFeed(request, request.params.id, undefined, { filtersForm: { ...form, preview } }));
      }
      await updateFeedSettings(deps, principalOf(request), request.params.id, { filters });
      return reply.redirect(`/dashboard/feeds/${request.params.id}?saved`, 303);
    } catch (error) {
      const refused = fieldErrorOf(error, 'filters', keepBlockInputs);
      return sendPage(
        reply,
        await renderFeed(request, request.params.id, undefined, { filtersForm: { ...form, error: refused } }),
        statusOf.validation_failed,
      );
    }
  });

  app.get<IdParams>('/feeds/:id/delete', async (request, reply) => {
    const { feed } = await getFeed(deps, principalOf(request), request.params.id);
    const name = feed.title || feed.id;
    return sendPage(
      reply,
      confirmPage(assets, viewerOf(request, secretKey), {
        section: 'feeds',
        title: `Delete ${name}`,
        heading: `Delete ${name}?`,
        warning: 'The feed, its items and its hosted address go away; bundles lose it. This cannot be undone.',
        action: `/dashboard/feeds/${feed.id}/delete`,
        button: 'Delete permanently',
        back: `/dashboard/feeds/${feed.id}`,
      }),
    );
  });

  app.post<IdParams>('/feeds/:id/delete', async (request, reply) => {
    await deleteFeed(deps, principalOf(request), request.params.id);
    return reply.redirect('/dashboard/feeds', 303);
  });
};
