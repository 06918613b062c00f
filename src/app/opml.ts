import type { Principal } from '../domain/api-key.js';
import { hostedFeedUrl } from '../domain/hosted-urls.js';
import type { Bundle } from '../domain/bundle.js';
import { FeedmillError, isFeedmillError, type ErrorCode } from '../domain/errors.js';
import type { Feed } from '../domain/feed.js';
import type { OpmlEntry } from '../domain/opml.js';
import { pageLimits } from '../domain/pagination.js';
import { renderOpml, type OpmlFeed } from '../domain/render/opml.js';
import { shownUrl } from '../domain/safe-url.js';
import { addFeedToBundle, createBundle } from './bundles.js';
import { createFeed } from './create-feed.js';
import type { AppDeps } from './deps.js';

async function everyFeed(deps: Pick<AppDeps, 'feeds'>, accountId: string): Promise<Feed[]> {
  const all: Feed[] = [];
  for (let offset = 0; ; offset += pageLimits.maxLimit) {
    const { feeds } = await deps.feeds.list(accountId, { limit: pageLimits.maxLimit, offset });
    all.push(...feeds);
    if (feeds.length < pageLimits.maxLimit) return all;
  }
}

async function everyBundle(deps: Pick<AppDeps, 'bundles'>, accountId: string): Promise<Bundle[]> {
  const all: Bundle[] = [];
  for (let offset = 0; ; offset += pageLimits.maxLimit) {
    const { bundles } = await deps.bundles.list(accountId, { limit: pageLimits.maxLimit, offset });
    all.push(...bundles);
    if (bundles.length < pageLimits.maxLimit) return all;
  }
}

/** GET /v1/opml: the account's feeds as OPML 2.0, bundles as outline groups. */
export async function exportOpml(deps: Pick<AppDeps, 'feeds' | 'bundles' | 'settings' | 'clock'>, principal: Principal): Promise<string> {
  const feeds = await everyFeed(deps, principal.accountId);
  const bundles = await everyBundle(deps, principal.accountId);
  const outline = (feed: Feed): OpmlFeed => ({ title: feed.title, xmlUrl: feed.sourceUrl, htmlUrl: shownUrl(feed.link), hostedUrl: hostedFeedUrl(deps.settings.publicUrl, feed.id) });
  const byId = new Map(feeds.map((feed) => [feed.id, feed]));
  const grouped = new Set(bundles.flatMap((bundle) => bundle.feedIds));
  return renderOpml(
    `feedmill: ${principal.accountId}`,
    deps.clock.now().toISOString(),
    bundles.map((bundle) => ({
      title: bundle.name,
      hostedUrl: hostedFeedUrl(deps.settings.publicUrl, bundle.id),
      feeds: bundle.feedIds.flatMap((id) => {
        const feed = byId.get(id);
        return feed ? [outline(feed)] : [];
      }),
    })),
    feeds.filter((feed) => !grouped.has(feed.id)).map(outline),
  );
}

export interface OpmlOutcome {
  xml_url: string;
  title: string;
  outcome: 'created' | 'existing' | 'failed';
  feed_id: string | null;
  bundle: string | null;
  error: { code: ErrorCode; message: string } | null;
}

export interface OpmlImport {
  id: string;
  accountId: string;
  status: 'running' | 'finished';
  total: number;
  done: number;
  outcomes: OpmlOutcome[];
  startedAt: string;
  finishedAt: string | null;
}

/** Imports kept per process for their progress to be read: the newest, at most this many. */
const keptImports = 200;

export interface OpmlImporter {
  /** Records the import and runs it in the background; the entries were read (and refused) before. */
  start(principal: Principal, entries: OpmlEntry[]): OpmlImport;
  get(principal: Principal, id: string): OpmlImport;
  /** Resolves when every import under way has finished (tests, shutdown). */
  idle(): Promise<void>;
}

/**
 * OPML import: each feed outline becomes a feed unless the account has one with that source (no
 * duplicates), each gets its own outcome, and one failing outline never stops the rest; each
 * group outline becomes a bundle of the feeds directly under it (an existing bundle of that name
 * gains them instead). Runs outline after outline in this process, progress readable by id.
 */
export function createOpmlImporter(deps: AppDeps): OpmlImporter {
  const imports = new Map<string, OpmlImport>();
  const running = new Set<Promise<void>>();

  async function run(principal: Principal, job: OpmlImport, entries: OpmlEntry[]): Promise<void> {
    const known = new Map((await everyFeed(deps, principal.accountId)).map((feed) => [feed.sourceUrl, feed.id]));
    const bundles = new Map((await everyBundle(deps, principal.accountId)).map((bundle) => [bundle.name, bundle]));
    const members = new Map<string, string[]>();
    for (const entry of entries) {
      const group = entry.groups.at(-1) ?? null;
      const outcome: OpmlOutcome = { xml_url: entry.xmlUrl, title: entry.title, outcome: 'existing', feed_id: known.get(entry.xmlUrl) ?? null, bundle: group, error: null };
      if (outcome.feed_id === null) {
        try {
          const { feed: created } = await createFeed(deps, principal, { url: entry.xmlUrl });
          outcome.outcome = 'created';
          outcome.feed_id = created.id;
          known.set(entry.xmlUrl, created.id);
        } catch (error) {
          outcome.outcome = 'failed';
          outcome.error = isFeedmillError(error) ? { code: error.code, message: error.message } : { code: 'internal_error', message: 'The feed could not be created' };
        }
      }
      if (group !== null && outcome.feed_id !== null) members.set(group, [...(members.get(group) ?? []), outcome.feed_id]);
      job.outcomes.push(outcome);
      job.done += 1;
    }
    for (const [name, feedIds] of members) {
      const existing = bundles.get(name);
      if (!existing) {
        await createBundle(deps, principal, { name, feeds: feedIds });
        continue;
      }
      for (const feedId of feedIds) if (!existing.feedIds.includes(feedId)) await addFeedToBundle(deps, principal, existing.id, feedId);
    }
  }

  return {
    start(principal, entries) {
      const job: OpmlImport = {
        id: `imp_${Buffer.from(deps.random(12)).toString('base64url')}`,
        accountId: principal.accountId,
        status: 'running',
        total: entries.length,
        done: 0,
        outcomes: [],
        startedAt: deps.clock.now().toISOString(),
        finishedAt: null,
      };
      imports.set(job.id, job);
      for (const old of imports.keys()) if (imports.size > keptImports) imports.delete(old);
      const work = run(principal, job, entries)
        .catch(() => undefined)
        .finally(() => {
          job.status = 'finished';
          job.finishedAt = deps.clock.now().toISOString();
          running.delete(work);
        });
      running.add(work);
      return job;
    },
    get(principal, id) {
      const job = imports.get(id);
      if (!job || job.accountId !== principal.accountId) {
        throw new FeedmillError('import_not_found', `No OPML import \`${id}\` in this account (progress is kept for the last ${keptImports} imports of this process)`);
      }
      return job;
    },
    async idle() {
      await Promise.all([...running]);
    },
  };
}
