import { URLPattern } from 'urlpattern-polyfill/urlpattern';
import { arrived, oneOf } from '../field-message.js';
import {
  feedFormats,
  pageExtractors,
  patternParts,
  platformResolvers,
  resolverVariables,
  type FeedTemplate,
  type PlatformRule,
} from './platform-rule.js';

/** Thrown for a rule table that does not have the rules' shape; the message names the rule and the field. */
export class PlatformRuleError extends Error {
  override readonly name = 'PlatformRuleError';
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `{name}` placeholders of a template. */
export const templateVariables = (template: string): string[] =>
  [...template.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1] ?? '');

/** Names of a pattern's named groups (`:name`), the variables its templates may use. */
const groupNames = (match: PlatformRule['match']): Set<string> =>
  new Set(Object.values(match).flatMap((part) => [...(part ?? '').matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] ?? '')));

/**
 * Checks a rule table (the built-in one, or an operator's JSON file) and returns it typed. Every
 * fault names where it is: `rule "github-releases" (#3): \`produce[0].url\` …`.
 * @param where what the table is, for the messages (`the built-in table`, `/etc/feedmill/rules.json`)
 */
export function readPlatformRules(json: unknown, where: string): PlatformRule[] {
  if (!Array.isArray(json)) throw new PlatformRuleError(`Expected ${where} to be a JSON array of rules, got ${arrived(json)}`);
  const names = new Set<string>();
  return json.map((row, index) => {
    const label = isRecord(row) && typeof row.name === 'string' ? `rule "${row.name}" (#${index + 1})` : `rule #${index + 1}`;
    const fail = (field: string, expected: string, value: unknown): never => {
      throw new PlatformRuleError(`${where}, ${label}: expected \`${field}\` to be ${expected}, got ${arrived(value)}`);
    };
    if (!isRecord(row)) return fail('(the rule)', 'an object with `name`, `platform`, `match` and `produce`', row);
    const known = ['name', 'platform', 'match', 'produce'];
    const extra = Object.keys(row).filter((key) => !known.includes(key));
    if (extra.length > 0) fail(extra[0] ?? '', `absent (a rule has ${oneOf(known)})`, row[extra[0] ?? '']);
    const { name, platform, match, produce } = row;
    if (typeof name !== 'string' || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name)) fail('name', 'a kebab-case name', name);
    if (names.has(name as string)) fail('name', 'unique in the table', name);
    names.add(name as string);
    if (typeof platform !== 'string' || platform.trim() === '') fail('platform', 'a non-empty string', platform);
    if (!isRecord(match) || Object.keys(match).length === 0) fail('match', `an object of URLPattern parts (${oneOf(patternParts)})`, match);
    const pattern: PlatformRule['match'] = {};
    for (const [part, value] of Object.entries(match as Record<string, unknown>)) {
      const known = patternParts.find((name) => name === part);
      if (known === undefined) fail(`match.${part}`, `absent (the parts are ${oneOf(patternParts)})`, value);
      else if (typeof value !== 'string') fail(`match.${part}`, 'a URLPattern string', value);
      else pattern[known] = value;
    }
    try {
      new URLPattern(pattern);
    } catch (error) {
      fail('match', `a valid URLPattern (${error instanceof Error ? error.message : String(error)})`, match);
    }
    if (!Array.isArray(produce) || produce.length === 0) fail('produce', 'a non-empty array of feed templates', produce);
    const groups = groupNames(pattern);
    const feeds = (produce as unknown[]).map((feed, at): FeedTemplate => {
      const field = `produce[${at}]`;
      if (!isRecord(feed)) return fail(field, 'an object with `url`', feed);
      const { url, format, resolver, extractor } = feed;
      const allowed = ['url', 'format', 'resolver', 'extractor'];
      const stray = Object.keys(feed).find((key) => !allowed.includes(key));
      if (stray !== undefined) fail(`${field}.${stray}`, `absent (a template has ${oneOf(allowed)})`, feed[stray]);
      if (typeof url !== 'string' || url === '') return fail(`${field}.url`, 'a URL template', url);
      const checkedFormat = feedFormats.find((name) => name === format);
      if (format !== undefined && checkedFormat === undefined) fail(`${field}.format`, oneOf(feedFormats), format);
      const checkedResolver = platformResolvers.find((name) => name === resolver);
      if (resolver !== undefined && checkedResolver === undefined) fail(`${field}.resolver`, oneOf(platformResolvers), resolver);
      const checkedExtractor = pageExtractors.find((name) => name === extractor);
      if (extractor !== undefined && (checkedExtractor === undefined || checkedFormat !== 'page'))
        fail(`${field}.extractor`, `${oneOf(pageExtractors)}, with \`format: "page"\``, extractor);
      const known = new Set([...groups, 'origin', ...(checkedResolver ? resolverVariables[checkedResolver] : [])]);
      const unknown = templateVariables(url).find((variable) => !known.has(variable));
      if (unknown !== undefined) fail(`${field}.url`, `a template over ${oneOf([...known].map((v) => `{${v}}`))}`, url);
      const sample = url.replaceAll(/\{[A-Za-z_][A-Za-z0-9_]*\}/g, (v) => (v === '{origin}' ? 'https://example.com' : 'x'));
      if (!/^https?:\/\//.test(sample) || !URL.canParse(sample)) fail(`${field}.url`, 'a template of an absolute http(s) URL', url);
      return {
        url,
        ...(checkedFormat ? { format: checkedFormat } : {}),
        ...(checkedResolver ? { resolver: checkedResolver } : {}),
        ...(checkedExtractor ? { extractor: checkedExtractor } : {}),
      };
    });
    return { name: name as string, platform: platform as string, match: pattern, produce: feeds };
  });
}
