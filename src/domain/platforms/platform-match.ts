import { URLPattern } from 'urlpattern-polyfill/urlpattern';
import type { FeedFormat, FeedTemplate, PageExtractor, PlatformResolver, PlatformRule } from './platform-rule.js';

/** A feed of the platform whose address the page's URL alone gives. */
export interface PlatformFeed {
  url: string;
  format: FeedFormat;
  platform: string;
  rule: string;
  extractor?: PageExtractor;
}

/** A feed of the platform that a resolver must finish (or confirm) from the page or the platform. */
export interface PendingPlatformFeed {
  resolver: PlatformResolver;
  template: FeedTemplate;
  /** The pattern's groups and `origin`; the resolver adds its own. */
  variables: Record<string, string>;
  platform: string;
  rule: string;
}

export interface PlatformMatch {
  /** Everything the rule produces, in its order: the ready feeds and those awaiting a resolver. */
  feeds: (PlatformFeed | PendingPlatformFeed)[];
}

export const isPending = (feed: PlatformFeed | PendingPlatformFeed): feed is PendingPlatformFeed => 'resolver' in feed;

/** Fills `{name}` from `variables`; an absent one (an optional group that did not match) is empty. */
export function fillTemplate(template: string, variables: Record<string, string>): string {
  return template.replaceAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_all, name: string) => variables[name] ?? '');
}

const namedGroups = (groups: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(groups).flatMap(([name, value]) => (/^\d+$/.test(name) ? [] : [[name, value ?? '']])));

/**
 * The one engine over the rule table: the first rule whose pattern matches the page's URL gives the
 * page's platform feeds (an operator's rules come first, so they can override a built-in one).
 * Pure: no fetch; the patterns are compiled once.
 */
export function platformMatcher(rules: readonly PlatformRule[]): (pageUrl: string) => PlatformMatch | undefined {
  const compiled = rules.map((rule) => ({ rule, pattern: new URLPattern(rule.match) }));
  return (pageUrl) => {
    for (const { rule, pattern } of compiled) {
      const result = pattern.exec(pageUrl);
      if (result === null) continue;
      const variables: Record<string, string> = {
        ...namedGroups(result.hostname.groups),
        ...namedGroups(result.pathname.groups),
        ...namedGroups(result.search.groups),
        origin: new URL(pageUrl).origin,
      };
      const feeds = rule.produce.map((template): PlatformFeed | PendingPlatformFeed =>
        template.resolver
          ? { resolver: template.resolver, template, variables, platform: rule.platform, rule: rule.name }
          : {
              url: fillTemplate(template.url, variables),
              format: template.format ?? 'rss',
              platform: rule.platform,
              rule: rule.name,
              ...(template.extractor ? { extractor: template.extractor } : {}),
            },
      );
      return { feeds };
    }
    return undefined;
  };
}
