import t from 'tap';
import { googleNewsSearchUrl, keywordSearchUrl, keywordSourceUrl, parseRegion } from '../../src/domain/keyword-source.js';

const params = (url: string) => Object.fromEntries(new URL(url).searchParams);

t.test('Google News editions: the usual ll-CC, and the countries that differ', async (t) => {
  t.same(params(googleNewsSearchUrl('rust', parseRegion('US:en'))), { q: 'rust', hl: 'en-US', gl: 'US', ceid: 'US:en' });
  t.same(params(googleNewsSearchUrl('rust', parseRegion('BR:pt'))), { q: 'rust', hl: 'pt-BR', gl: 'BR', ceid: 'BR:pt-419' });
  t.same(params(googleNewsSearchUrl('rust', parseRegion('MX:es'))), { q: 'rust', hl: 'es-419', gl: 'MX', ceid: 'MX:es-419' });
  t.same(params(googleNewsSearchUrl('rust', parseRegion('FR:fr'))), { q: 'rust', hl: 'fr', gl: 'FR', ceid: 'FR:fr' });
  t.same(params(googleNewsSearchUrl('rust', parseRegion('IN:hi'))), { q: 'rust', hl: 'hi-IN', gl: 'IN', ceid: 'IN:hi' });
});

t.test('headline-style phrases and quotes survive encoding', async (t) => {
  const phrase = 'Fed holds rates: "no hurry" & markets rally';
  t.equal(params(googleNewsSearchUrl(phrase, parseRegion('US:en'))).q, phrase);
  t.equal(
    new URL(keywordSearchUrl('https://s.example/?q={keyword}&c={country}', phrase, parseRegion('us:EN'))).searchParams.get('q'),
    phrase,
  );
  t.same(params(keywordSourceUrl('https://feedmill.example/', phrase, parseRegion('US:en'))), {
    keyword: phrase,
    region: 'US',
    lang: 'en',
  });
});

t.test('a region must be COUNTRY:language', async (t) => {
  t.same(parseRegion(' de:DE '), { country: 'DE', lang: 'de' });
  for (const bad of ['US', 'USA:en', 'US-en', 'US:eng', '', 'U1:en']) t.throws(() => parseRegion(bad), { code: 'validation_failed' }, bad);
});
