import { fieldRefusal } from './errors.js';
import { expectedMessage } from './field-message.js';

export interface Region {
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  /** ISO 639-1, lower case. */
  lang: string;
}

/** Spec: `region` has the shape `<country>:<language>`, e.g. `US:en`. */
export function parseRegion(raw: string): Region {
  const match = /^([A-Za-z]{2}):([A-Za-z]{2})$/.exec(raw.trim());
  if (!match?.[1] || !match[2]) {
    throw fieldRefusal('region', expectedMessage('region', 'COUNTRY:language (ISO 3166-1 and 639-1, e.g. `US:en`)', { value: raw }));
  }
  return { country: match[1].toUpperCase(), lang: match[2].toLowerCase() };
}

/** DESIGN.md: `source_url` = `{FEEDMILL_PUBLIC_URL}/keyword?keyword=…&region=US&lang=en`. */
export function keywordSourceUrl(publicUrl: string, keyword: string, region: Region): string {
  const params = new URLSearchParams({ keyword, region: region.country, lang: region.lang });
  return `${publicUrl.replace(/\/+$/, '')}/keyword?${params.toString()}`;
}

/** Whether `sourceUrl` is a keyword feed's (keywordSourceUrl), not a page or feed someone gave. */
export const isKeywordSourceUrl = (publicUrl: string, sourceUrl: string): boolean =>
  sourceUrl.startsWith(`${publicUrl.replace(/\/+$/, '')}/keyword?`);

/**
 * Google News editions whose `hl` / `ceid` are not the plain `ll-CC` / `CC:ll` (the site's own
 * edition picker): Latin American Spanish and Brazilian Portuguese use regional codes, Chinese uses
 * scripts, and some editions use the bare language.
 */
const editions: Record<string, { hl: string; ceid: string }> = {
  'BR:pt': { hl: 'pt-BR', ceid: 'BR:pt-419' },
  'PT:pt': { hl: 'pt-PT', ceid: 'PT:pt-150' },
  'MX:es': { hl: 'es-419', ceid: 'MX:es-419' },
  'AR:es': { hl: 'es-419', ceid: 'AR:es-419' },
  'CO:es': { hl: 'es-419', ceid: 'CO:es-419' },
  'CL:es': { hl: 'es-419', ceid: 'CL:es-419' },
  'PE:es': { hl: 'es-419', ceid: 'PE:es-419' },
  'VE:es': { hl: 'es-419', ceid: 'VE:es-419' },
  'US:es': { hl: 'es-419', ceid: 'US:es-419' },
  'ES:es': { hl: 'es', ceid: 'ES:es' },
  'FR:fr': { hl: 'fr', ceid: 'FR:fr' },
  'DE:de': { hl: 'de', ceid: 'DE:de' },
  'IT:it': { hl: 'it', ceid: 'IT:it' },
  'JP:ja': { hl: 'ja', ceid: 'JP:ja' },
  'KR:ko': { hl: 'ko', ceid: 'KR:ko' },
  'NL:nl': { hl: 'nl', ceid: 'NL:nl' },
  'RU:ru': { hl: 'ru', ceid: 'RU:ru' },
  'CN:zh': { hl: 'zh-CN', ceid: 'CN:zh-Hans' },
  'TW:zh': { hl: 'zh-TW', ceid: 'TW:zh-Hant' },
  'HK:zh': { hl: 'zh-HK', ceid: 'HK:zh-Hant' },
  'US:en': { hl: 'en-US', ceid: 'US:en' },
  'GB:en': { hl: 'en-GB', ceid: 'GB:en' },
};

/**
 * Regions to offer in a picker: the editions above and the common ones whose codes are plain. Any
 * other COUNTRY:language still works through the API; this is a list to choose from, not a rule.
 */
export const knownRegions: readonly string[] = [
  ...Object.keys(editions),
  ...['AU:en', 'CA:en', 'CA:fr', 'IE:en', 'IN:en', 'NZ:en', 'SG:en', 'ZA:en', 'BE:fr', 'BE:nl', 'CH:de', 'CH:fr', 'AT:de'],
  ...['SE:sv', 'NO:no', 'DK:da', 'FI:fi', 'PL:pl', 'CZ:cs', 'GR:el', 'TR:tr', 'UA:uk', 'IL:he', 'ID:id', 'TH:th', 'VN:vi'],
];

/** The default upstream: Google News RSS search for the region's edition. */
export function googleNewsSearchUrl(keyword: string, region: Region): string {
  const edition = editions[`${region.country}:${region.lang}`] ?? {
    hl: `${region.lang}-${region.country}`,
    ceid: `${region.country}:${region.lang}`,
  };
  const params = new URLSearchParams({ q: keyword, hl: edition.hl, gl: region.country, ceid: edition.ceid });
  return `https://news.google.com/rss/search?${params.toString()}`;
}

/** `FEEDMILL_KEYWORD_SEARCH_URL` with `{keyword}`, `{country}`, `{lang}` filled in, URL-encoded. */
export function keywordSearchUrl(template: string | undefined, keyword: string, region: Region): string {
  if (template === undefined) return googleNewsSearchUrl(keyword, region);
  return template
    .replaceAll('{keyword}', encodeURIComponent(keyword))
    .replaceAll('{country}', encodeURIComponent(region.country))
    .replaceAll('{lang}', encodeURIComponent(region.lang));
}
