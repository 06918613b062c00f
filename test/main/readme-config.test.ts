import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { errorCodes } from '../../src/domain/errors.js';
import { settings } from '../../src/main/config.js';
import { repoRoot } from '../fixtures/repo-root.js';

// The tables moved out of README.md into docs/ (issue 30): the configuration page and the error page.
const configuration = readFileSync(join(repoRoot, 'docs', 'configuration.md'), 'utf8');
const errorsPage = readFileSync(join(repoRoot, 'docs', 'errors.md'), 'utf8');

t.test('docs/configuration.md documents every setting with its default', async (t) => {
  for (const row of Object.values(settings)) {
    const line = configuration.split('\n').find((text) => text.startsWith(`| \`${row.env}\``));
    t.ok(line, `${row.env} has a row in the configuration table`);
    if (line && row.default !== undefined && row.env !== 'FEEDMILL_PARSER_THREADS') {
      t.ok(line.includes(`\`${row.default}\``), `${row.env} shows its default ${row.default}`);
    }
  }
});

t.test('docs/errors.md lists every error code', async (t) => {
  for (const code of errorCodes) t.ok(errorsPage.includes(`| \`${code}\` |`), `${code} is documented`);
});
