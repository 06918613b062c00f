import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { settings } from '../../src/main/config.js';

// The chart (helm/feedmill) exposes every setting of src/main/config.ts under `config:` in
// values.yaml and values.schema.json, and turns each key into its env variable by rule
// (templates/_helpers.tpl, feedmill.envName). These tests keep the three in step.

interface Row {
  env: string;
  default: string | undefined;
  doc: string;
  parse: (raw: string) => unknown;
}
/**
 * Settings the chart sets from its own sections rather than from `config:` (they carry
 * credentials or belong to a server the chart points at). None exists in config.ts yet: these are
 * the names the chart already renders (FEEDMILL_REDIS_URL, FEEDMILL_CASSANDRA_*) for the cluster
 * store work to adopt. A setting listed here must not also appear under `config:`.
 */
const setElsewhere: Record<string, string> = {
  redisUrl: 'redis.url (+ redis.password / redis.existingSecret)',
  cassandraContactPoints: 'cassandra.contactPoints',
  cassandraLocalDataCenter: 'cassandra.localDataCenter',
  cassandraKeyspace: 'cassandra.keyspace',
  cassandraUsername: 'cassandra.username',
  cassandraPassword: 'cassandra.password / cassandra.existingSecret',
};
const allRows = Object.entries(settings) as [string, Row][];
const rows = allRows.filter(([key]) => !(key in setElsewhere));
const keys = rows.map(([key]) => key);

/**
 * Values the chart offers before config.ts accepts them; each must still be refused by config.ts
 * (the test below says when to remove one). The cluster mode is the chart's default, and the
 * Cassandra store is wired into config.ts by the cluster-store work.
 */
const aheadOfTheApp: Record<string, string[]> = {};

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  return dir;
}
const chartDir = join(repoRoot(), 'helm', 'feedmill');

type Scalar = string | number | boolean | null;
interface Entry {
  value: Scalar;
  /** The comment lines right above the key, without `#`. */
  comment: string[];
  line: number;
}

/** A YAML scalar as values.yaml writes them: "…", '…', true/false, integers, null/~/empty. */
function scalar(raw: string): Scalar {
  const text = raw.trim();
  if (text.startsWith('"')) return JSON.parse(text.slice(0, text.lastIndexOf('"') + 1)) as string;
  if (text.startsWith("'")) return text.slice(1, text.indexOf("'", 1)).replaceAll("''", "'");
  const bare = text.replace(/\s+#.*$/, '');
  if (bare === '' || bare === 'null' || bare === '~') return null;
  if (bare === 'true' || bare === 'false') return bare === 'true';
  if (/^-?\d+$/.test(bare)) return Number(bare);
  return bare;
}

/**
 * The `config:` block of values.yaml: a flat map of scalars, two spaces in. Anything else in it
 * (a nested map, a list) is reported, so this small reader never guesses.
 */
function readConfigBlock(text: string): { entries: Map<string, Entry>; duplicates: string[]; unreadable: string[] } {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => /^config:\s*(#.*)?$/.test(line));
  if (start < 0) throw new Error('values.yaml has no top-level `config:` block');
  const entries = new Map<string, Entry>();
  const duplicates: string[] = [];
  const unreadable: string[] = [];
  let comment: string[] = [];
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (/^[^\s#]/.test(line)) break;
    if (line.trim() === '') {
      comment = [];
      continue;
    }
    const note = /^\s*#\s?(.*)$/.exec(line);
    if (note) {
      comment.push(note[1] ?? '');
      continue;
    }
    const pair = /^ {2}([A-Za-z][A-Za-z0-9]*):(.*)$/.exec(line);
    if (!pair || (pair[2] ?? '').trim() === '') {
      unreadable.push(`line ${i + 1}: ${line.trim()}`);
      comment = [];
      continue;
    }
    const key = pair[1] ?? '';
    if (entries.has(key)) duplicates.push(key);
    entries.set(key, { value: scalar(pair[2] ?? ''), comment, line: i + 1 });
    comment = [];
  }
  return { entries, duplicates, unreadable };
}

interface SchemaProperty {
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  oneOf?: SchemaProperty[];
}
interface ValuesSchema {
  properties: { config: { additionalProperties?: boolean; properties: Record<string, SchemaProperty> } };
}

const values = readConfigBlock(readFileSync(join(chartDir, 'values.yaml'), 'utf8'));
const schema = JSON.parse(readFileSync(join(chartDir, 'values.schema.json'), 'utf8')) as ValuesSchema;
const schemaConfig = schema.properties.config;

const accepts = (row: Row, raw: string): boolean => {
  try {
    row.parse(raw);
    return true;
  } catch {
    return false;
  }
};
/** What the chart writes into the ConfigMap for a value (feedmill.envValue). */
const asEnv = (value: Scalar): string => (value === null ? '' : String(value));

t.test('values.yaml lists every setting of config.ts under config:, once, and nothing else', async (t) => {
  t.same(values.unreadable, [], 'every line of config: is `key: scalar` two spaces in');
  t.same(values.duplicates, [], 'no key twice');
  const listed = [...values.entries.keys()];
  t.same(keys.filter((key) => !values.entries.has(key)), [], 'settings missing from values.yaml config: (add them with their default and doc)');
  t.same(listed.filter((key) => !keys.includes(key)), [], 'keys in values.yaml config: that config.ts does not have');
});

t.test('settings the chart sets from its redis and cassandra sections are not under config: too', async (t) => {
  for (const [key] of allRows.filter(([key]) => key in setElsewhere)) {
    t.notOk(values.entries.has(key), `${key} is set from ${setElsewhere[key]}; remove it from config:`);
    t.notOk(key in schemaConfig.properties, `${key} is set from ${setElsewhere[key]}; remove it from the schema's config`);
  }
});

t.test('values.schema.json describes every setting under properties.config, and nothing else', async (t) => {
  const described = Object.keys(schemaConfig.properties);
  t.same(keys.filter((key) => !described.includes(key)), [], 'settings missing from values.schema.json');
  t.same(described.filter((key) => !keys.includes(key)), [], 'keys in values.schema.json that config.ts does not have');
  t.equal(schemaConfig.additionalProperties, false, 'unknown config keys are refused');
});

t.test('each env variable is FEEDMILL_ + the key in SCREAMING_SNAKE_CASE, the rule the chart uses', async (t) => {
  for (const [key, row] of allRows) {
    const derived = `FEEDMILL_${key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}`;
    t.equal(derived, row.env, `${key}: the chart would set ${derived}`);
  }
});

t.test("each key in values.yaml carries the setting's doc as its comment", async (t) => {
  for (const [key, row] of rows) {
    const entry = values.entries.get(key);
    if (!entry) continue;
    t.equal(entry.comment[0], row.doc, `${key} (values.yaml line ${entry.line}): the first comment line is the doc of config.ts`);
  }
});

t.test('the chart defaults are values config.ts accepts', async (t) => {
  for (const [key, row] of rows) {
    const entry = values.entries.get(key);
    if (!entry) continue;
    const raw = asEnv(entry.value);
    if (raw === '' || aheadOfTheApp[key]?.includes(raw)) continue; // empty: the variable stays unset
    t.ok(accepts(row, raw), `${key}: config.ts accepts \`${raw}\``);
  }
});

t.test('integer ranges in values.schema.json are the ones config.ts accepts', async (t) => {
  for (const [key, row] of rows) {
    const property = schemaConfig.properties[key];
    if (!property) continue;
    const numeric = [property, ...(property.oneOf ?? [])].find((p) => p.type === 'integer');
    if (!numeric) {
      const looksInteger = (accepts(row, '1') || accepts(row, '1024')) && !accepts(row, 'x') && !accepts(row, 'true');
      t.notOk(looksInteger, `${key}: config.ts reads an integer, so the schema must say integer`);
      continue;
    }
    const { minimum, maximum } = numeric;
    if (minimum === undefined || maximum === undefined) {
      t.fail(`${key}: an integer setting needs minimum and maximum in the schema`);
      continue;
    }
    t.ok(accepts(row, String(minimum)), `${key}: config.ts accepts the schema's minimum ${minimum}`);
    t.ok(accepts(row, String(maximum)), `${key}: config.ts accepts the schema's maximum ${maximum}`);
    t.notOk(accepts(row, String(minimum - 1)), `${key}: config.ts refuses ${minimum - 1}, below the schema's minimum`);
    t.notOk(accepts(row, String(maximum + 1)), `${key}: config.ts refuses ${maximum + 1}, above the schema's maximum`);
  }
});

t.test('booleans are booleans in both', async (t) => {
  for (const [key, row] of rows) {
    const isBoolean = (() => {
      try {
        return row.parse('true') === true && row.parse('false') === false;
      } catch {
        return false;
      }
    })();
    const property = schemaConfig.properties[key];
    t.equal(property?.type === 'boolean', isBoolean, `${key}: ${isBoolean ? 'a boolean in config.ts' : 'not a boolean in config.ts'}`);
  }
});

t.test('every value an enum of values.schema.json offers is accepted by config.ts', async (t) => {
  for (const [key, row] of rows) {
    for (const option of schemaConfig.properties[key]?.enum ?? []) {
      const raw = String(option);
      if (aheadOfTheApp[key]?.includes(raw)) {
        t.notOk(accepts(row, raw), `${key}: config.ts still refuses \`${raw}\` (once it accepts it, remove it from aheadOfTheApp in this test)`);
      } else {
        t.ok(accepts(row, raw), `${key}: config.ts accepts \`${raw}\``);
      }
    }
  }
});

t.test("Chart.yaml's appVersion is package.json's version (the default image tag)", async (t) => {
  const chart = readFileSync(join(chartDir, 'Chart.yaml'), 'utf8');
  const appVersion = /^appVersion:\s*"?([^"\s]+)"?\s*$/m.exec(chart)?.[1];
  const { version } = JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as { version: string };
  t.equal(appVersion, version, 'bump appVersion (and the chart version) in helm/feedmill/Chart.yaml with each release');
});
