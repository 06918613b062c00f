import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { errorCodes } from '../../src/domain/errors.js';
import { settings } from '../../src/main/config.js';
import { repoRoot } from '../fixtures/repo-root.js';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

t.test('README documents every setting with its default', async (t) => {
  for (const row of Object.values(settings)) {
    const line = readme.split('\n').find((text) => text.startsWith(`| \`${row.env}\``));
    t.ok(line, `${row.env} has a row in the configuration table`);
    if (line && row.default !== undefined && row.env !== 'FEEDMILL_PARSER_THREADS') {
      t.ok(line.includes(`\`${row.default}\``), `${row.env} shows its default ${row.default}`);
    }
  }
});

t.test('README lists every error code', async (t) => {
  for (const code of errorCodes) t.ok(readme.includes(`| \`${code}\` |`), `${code} is documented`);
});
