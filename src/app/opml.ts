import type { Principal } from '../domain/api-key.js';
import { hostedFeedUrl } from '../domain/hosted-urls.js';
import type { Bundle } from '../domain/bundle.js';
import { FeedmillError, isFeedmillError } from '../domain/errors.js';
import type { Feed } from '../domain/feed.js';
import type { OpmlEntry, OpmlImport, OpmlOutcome } from '../domain/opml.js';
import { keptImportSeconds } from '../ports/opml-import-store.js';
import { pageLimits } from '../domain/pagination.js';
import { renderOpml, type OpmlFeed } from '../formats/opml.js';
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
  const outline = (feed: Feed): OpmlFeed => ({
    title: feed.title,
    xmlUrl: feed.sourceUrl,
    htmlUrl: shownUrl(feed.link),
    hostedUrl: hostedFeedUrl(deps.settings.publicUrl, feed.id),
  });
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

export type { OpmlImport, OpmlOutcome } from '../domain/opml.js';

export type OpmlImportDeps = AppDeps;

/**
 * POST /v1/opml: records the import (its outlines were read, and refused, before) and queues it as a
 * job on the delivery queue (job id = import id), so in cluster mode a worker runs it and any API
 * replica reports its progress from the import store.
 */
export async function startOpmlImport(deps: OpmlImportDeps, principal: Principal, entries: OpmlEntry[]): Promise<OpmlImport> {
  const job = await recordOpmlImport(deps, principal, entries);
  await deps.deliveryScheduler.schedule(job.id, deps.clock.now());
  return job;
}

/** Records an import without queueing it: the CLI runs it itself (`runOpmlImport`). */
export async function recordOpmlImport(
  deps: Pick<AppDeps, 'imports' | 'random' | 'clock'>,
  principal: Principal,
  entries: OpmlEntry[],
): Promise<OpmlImport> {
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
  await deps.imports.create(job, entries);
  return job;
}

/** GET /v1/opml/imports/:id: another account's import is not found, as an unknown one. */
export async function getOpmlImport(deps: Pick<AppDeps, 'imports'>, principal: Principal, id: string): Promise<OpmlImport> {
  const job = await deps.imports.get(id);
  if (!job || job.accountId !== principal.accountId) {
    throw new FeedmillError(
      'import_not_found',
      `No OPML import \`${id}\` in this account (progress is kept for ${keptImportSeconds / 86_400} days after an import starts)`,
    );
  }
  return job;
}

/**
 * Runs an import, the job's body: each feed outline becomes a feed unless the account has one with
 * that source (no duplicates), each gets its own outcome, and one failing outline never stops the
 * rest; each group outline becomes a bundle of the feeds directly under it (an existing bundle of
 * that name gains them instead). Resumes after the outlines already done, so a job retried after a
 * worker died goes on where it stopped (an outline created just before is then `existing`).
 */
export async function runOpmlImport(deps: OpmlImportDeps, id: string): Promise<void> {
  const job = await deps.imports.get(id);
  const entries = await deps.imports.entries(id);
  if (!job || !entries || job.status === 'finished') return;
  const principal: Principal = { accountId: job.accountId, keyId: 'opml-import', scopes: ['read', 'write'] };
  const known = new Map((await everyFeed(deps, principal.accountId)).map((feed) => [feed.sourceUrl, feed.id]));
  const bundles = new Map((await everyBundle(deps, principal.accountId)).map((bundle) => [bundle.name, bundle]));
  const members = new Map<string, string[]>();
  const join = (group: string | null, feedId: string | null): void => {
    if (group !== null && feedId !== null) members.set(group, [...(members.get(group) ?? []), feedId]);
  };
  for (const done of job.outcomes) join(done.bundle, done.feed_id);
  for (const entry of entries.slice(job.done)) {
    const group = entry.groups.at(-1) ?? null;
    const outcome: OpmlOutcome = {
      xml_url: entry.xmlUrl,
      title: entry.title,
      outcome: 'existing',
      feed_id: known.get(entry.xmlUrl) ?? null,
      bundle: group,
      error: null,
    };
    if (outcome.feed_id === null) {
      try {
        const { feed: created } = await createFeed(deps, principal, { url: entry.xmlUrl });
        outcome.outcome = 'created';
        outcome.feed_id = created.id;
        known.set(entry.xmlUrl, created.id);
      } catch (error) {
        outcome.outcome = 'failed';
        outcome.error = isFeedmillError(error)
          ? { code: error.code, message: error.message }
          : { code: 'internal_error', message: 'The feed could not be created' };
      }
    }
    join(group, outcome.feed_id);
    await deps.imports.addOutcome(id, outcome);
  }
  for (const [name, feedIds] of members) {
    const existing = bundles.get(name);
    if (!existing) {
      await createBundle(deps, principal, { name, feeds: feedIds });
      continue;
    }
    for (const feedId of feedIds) if (!existing.feedIds.includes(feedId)) await addFeedToBundle(deps, principal, existing.id, feedId);
  }
  await deps.imports.finish(id, deps.clock.now().toISOString());
}
