import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { repoRoot } from '../fixtures/repo-root.js';

const script = join(repoRoot, 'scripts', 'helm-readme.py');
const readme = readFileSync(join(repoRoot, 'helm', 'feedmill', 'README.md'), 'utf8');
const schema = JSON.parse(readFileSync(join(repoRoot, 'helm', 'feedmill', 'values.schema.json'), 'utf8')) as { properties: Record<string, { properties?: Record<string, unknown> }> };

t.test('the chart README is what scripts/helm-readme.py generates from values.yaml and the schema', async (t) => {
  await t.resolves(promisify(execFile)('python3', [script, '--check']), 'no drift (regenerate with: python3 scripts/helm-readme.py)');
});

t.test('the chart README has a row for every top-level value and every setting under config', async (t) => {
  for (const key of Object.keys(schema.properties).filter((name) => name !== 'global')) {
    t.ok(readme.includes(`| \`${key}`), `${key} is documented`);
  }
  for (const key of Object.keys(schema.properties.config?.properties ?? {})) {
    t.ok(readme.includes(`| \`config.${key}\` |`), `config.${key} is documented`);
  }
});
