import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { staticLookup } from '../../src/adapters/undici/static-lookup.js';
import { loadConfig } from '../../src/main/config.js';

const dir = mkdtempSync(join(tmpdir(), 'feedmill-rules-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const rulesFile = (json: unknown): string => {
  const path = join(dir, `rules-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(json));
  return path;
};

t.test("an operator's platform rules are read at start-up", async (t) => {
  const path = rulesFile([
    {
      name: 'my-forum',
      platform: 'My forum',
      match: { hostname: 'forum.example', pathname: '/t/:topic' },
      produce: [{ url: '{origin}/t/{topic}.rss' }],
    },
  ]);
  t.equal(loadConfig({ FEEDMILL_PLATFORM_RULES: path }).platformRules?.rules[0]?.name, 'my-forum');
  t.equal(loadConfig({}).platformRules, undefined, 'none by default');
});

t.test('a faulty rule file stops start-up with the variable, the file, the rule and the field', async (t) => {
  const path = rulesFile([
    { name: 'my-forum', platform: 'My forum', match: { hostname: 'forum.example' }, produce: [{ url: '{origin}/{topic}' }] },
  ]);
  t.throws(() => loadConfig({ FEEDMILL_PLATFORM_RULES: path }), {
    message: new RegExp(
      `FEEDMILL_PLATFORM_RULES: ${path.replaceAll('.', '\\.')}, rule "my-forum" \\(#1\\): expected \`produce\\[0\\]\\.url\``,
    ),
  });
  t.throws(() => loadConfig({ FEEDMILL_PLATFORM_RULES: join(dir, 'missing.json') }), {
    message: /FEEDMILL_PLATFORM_RULES: expected a readable JSON file of platform rules \(ENOENT\)/,
  });
});

t.test('static hosts are name=address pairs, and the lookup answers them before DNS', async (t) => {
  const hosts = loadConfig({ FEEDMILL_STATIC_HOSTS: 'feeds.internal=10.0.0.5, Feeds.Internal=::1,other.example=127.0.0.1' }).staticHosts;
  t.same(
    [...(hosts ?? [])],
    [
      ['feeds.internal', ['10.0.0.5', '::1']],
      ['other.example', ['127.0.0.1']],
    ],
  );
  t.throws(() => loadConfig({ FEEDMILL_STATIC_HOSTS: 'feeds.internal=not-an-ip' }), {
    message: /FEEDMILL_STATIC_HOSTS: expected comma-separated `host=address` pairs/,
  });
  const asked: string[] = [];
  const lookup = staticLookup(hosts ?? new Map(), async (name) => {
    asked.push(name);
    return [{ address: '192.0.2.1', family: 4 }];
  });
  t.same(await lookup('FEEDS.internal'), [
    { address: '10.0.0.5', family: 4 },
    { address: '::1', family: 6 },
  ]);
  t.same(await lookup('elsewhere.example'), [{ address: '192.0.2.1', family: 4 }]);
  t.same(asked, ['elsewhere.example'], 'only names not pinned go to DNS');
});

t.test('`feedmill config` shows these settings in the form their variables take', async (t) => {
  const { configCommand } = await import('../../src/main/config-command.js');
  const path = rulesFile([]);
  const env = { FEEDMILL_PLATFORM_RULES: path, FEEDMILL_STATIC_HOSTS: 'a.example=10.0.0.1,a.example=10.0.0.2' };
  const lines: string[] = [];
  configCommand([], loadConfig(env), env, (line) => lines.push(line));
  t.match(lines.join('\n'), new RegExp(`FEEDMILL_PLATFORM_RULES\\s+${path.replaceAll('.', '\\.')}`));
  t.match(lines.join('\n'), /FEEDMILL_STATIC_HOSTS\s+a\.example=10\.0\.0\.1,a\.example=10\.0\.0\.2/);
});
