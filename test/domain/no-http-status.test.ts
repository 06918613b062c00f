import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import t from 'tap';
import { errorCodes } from '../../src/domain/errors.js';
import { repoRoot } from '../fixtures/repo-root.js';

const domainDir = join(repoRoot, 'src', 'domain');

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );

/**
 * What naming an HTTP status looks like: one of our codes mapped to a number (`feed_not_found: 404`),
 * a status field given a number (`statusCode: 400`), a comparison with a status (`=== 402`), a table
 * of them (`statusOf`), or a reply's status call. (A delivery attempt records the status the
 * receiver answered, as data: that names none.)
 */
const httpStatus = [
  new RegExp(`\\b(${errorCodes.join('|')})['"]?\\s*:\\s*[1-5]\\d\\d\\b`),
  /\b[sS]tatus(Code)?\s*:\s*[1-5]\d\d\b/,
  /[=!]==?\s*[1-5]\d\d\b/,
  /\b[1-5]\d\d\s*[=!<>]==?/,
  /\bstatusOf\b/,
  /\.(status|code)\([1-5]\d\d\)/,
];

t.test('no file in src/domain names an HTTP status: the surfaces map codes to statuses', async (t) => {
  const files = sources(domainDir);
  t.ok(files.length > 20, `read ${files.length} domain files`);
  const found = files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        httpStatus.some((pattern) => pattern.test(line)) ? [`${relative(repoRoot, file)}:${index + 1}: ${line.trim()}`] : [],
      ),
  );
  t.same(found, [], 'HTTP statuses belong in src/web/status.ts');
});

t.test('the check finds a status table when one is there', async (t) => {
  t.ok(httpStatus.some((pattern) => pattern.test('  feed_not_found: 404,')));
  t.ok(httpStatus.some((pattern) => pattern.test('if (statusOf[error.code] !== 402) return error;')));
  t.ok(httpStatus.some((pattern) => pattern.test('return { statusCode: 400 };')));
});
