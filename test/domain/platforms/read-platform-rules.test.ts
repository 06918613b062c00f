import t from 'tap';
import { PlatformRuleError, readPlatformRules } from '../../../src/domain/platforms/read-platform-rules.js';

const rule = (overrides: Record<string, unknown>): Record<string, unknown> => ({
  name: 'my-forum',
  platform: 'My forum',
  match: { hostname: 'forum.example', pathname: '/t/:topic' },
  produce: [{ url: '{origin}/t/{topic}.rss' }],
  ...overrides,
});

t.test('an operator rule in the table shape is read as it is', async (t) => {
  t.same(readPlatformRules([rule({})], 'rules.json'), [
    {
      name: 'my-forum',
      platform: 'My forum',
      match: { hostname: 'forum.example', pathname: '/t/:topic' },
      produce: [{ url: '{origin}/t/{topic}.rss' }],
    },
  ]);
});

t.test('a faulty rule is refused with a message naming the file, the rule and the field', async (t) => {
  const refused: [unknown, RegExp][] = [
    [{ rules: [] }, /Expected rules\.json to be a JSON array of rules, got an object with `rules`/],
    [[rule({ name: 'My Forum' })], /rule "My Forum" \(#1\): expected `name` to be a kebab-case name/],
    [[rule({}), rule({})], /rule "my-forum" \(#2\): expected `name` to be unique/],
    [[rule({ match: { host: 'x' } })], /rule "my-forum" \(#1\): expected `match\.host` to be absent/],
    [[rule({ match: { pathname: '/t/:topic(' } })], /expected `match` to be a valid URLPattern/],
    [
      [rule({ produce: [{ url: '{origin}/t/{thread}.rss' }] })],
      /expected `produce\[0\]\.url` to be a template over `\{topic\}` or `\{origin\}`/,
    ],
    [[rule({ produce: [{ url: 'ftp://x/{topic}' }] })], /expected `produce\[0\]\.url` to be a template of an absolute http\(s\) URL/],
    [
      [rule({ produce: [{ url: '{origin}/{topic}', format: 'xml' }] })],
      /`produce\[0\]\.format` to be `rss`, `atom`, `rdf`, `json_feed` or `page`, got "xml"/,
    ],
    [
      [rule({ produce: [{ url: '{origin}/{topic}', resolver: 'scrape' }] })],
      /`produce\[0\]\.resolver` to be `youtube-handle` or `activitypub`/,
    ],
    [
      [rule({ produce: [{ url: '{origin}/{topic}', extractor: 'telegram-channel' }] })],
      /`produce\[0\]\.extractor` to be `telegram-channel`, with `format: "page"`/,
    ],
    [[rule({ produce: [] })], /expected `produce` to be a non-empty array/],
  ];
  for (const [json, message] of refused)
    t.throws(() => readPlatformRules(json, 'rules.json'), { name: PlatformRuleError.name, message }, String(message));
});

t.test("a resolver's variables may be used by its template", async (t) => {
  const read = readPlatformRules(
    [
      rule({
        match: { hostname: 'yt.example', pathname: '/@:handle' },
        produce: [{ url: 'https://yt.example/f?c={channel_id}', resolver: 'youtube-handle' }],
      }),
    ],
    'rules.json',
  );
  t.equal(read[0]?.produce[0]?.resolver, 'youtube-handle');
});
