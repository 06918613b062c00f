import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t, { type Test } from 'tap';
import { repoRoot } from '../fixtures/repo-root.js';

const cli = join(repoRoot, 'dist', 'src', 'main', 'cli.js');

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `feedmill …` in `cwd` with the default data directory (./data), as a person would. */
async function feedmill(cwd: string, args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('FEEDMILL_')));
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [cli, ...args], {
      cwd,
      env: { ...clean, FEEDMILL_STORE: 'embedded', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

function emptyDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'feedmill-cli-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

t.test('asking a command for help, or giving it a wrong argument, opens no store', async (t) => {
  const cwd = emptyDir(t);
  for (const args of [
    ['keys', '--help'],
    ['keys'],
    ['keys', 'list', '--help'],
    ['keys', 'create', '-h'],
    ['users', '--help'],
    ['users', 'list', '--help'],
  ]) {
    const outcome = await feedmill(cwd, args);
    t.equal(outcome.code, 0, `${args.join(' ')} exits 0`);
    t.match(outcome.stdout, /^usage: feedmill (keys|users) /, `${args.join(' ')} prints the usage`);
  }
  for (const args of [
    ['keys', 'list', '--bogus'],
    ['keys', 'create'],
    ['keys', 'create', '--account', 'a', '--scopes', 'admin'],
    ['keys', 'revoke'],
    ['keys', 'rotate'],
    ['users', 'create', '--email'],
    ['users', 'rename'],
  ]) {
    const outcome = await feedmill(cwd, args);
    t.equal(outcome.code, 2, `${args.join(' ')} is a usage error (exit 2): ${outcome.stderr}`);
  }
  t.notOk(existsSync(join(cwd, 'data')), 'no ./data directory (and no feedmill.sqlite) was made');
});

t.test('keys create --json and keys list --json use the same field names', async (t) => {
  const cwd = emptyDir(t);
  const created = await feedmill(cwd, ['keys', 'create', '--account', 'acme', '--scopes', 'read', '--json']);
  t.equal(created.code, 0, created.stderr);
  const pair = JSON.parse(created.stdout.trim()) as Record<string, unknown>;
  const listed = await feedmill(cwd, ['keys', 'list', '--json']);
  const [row] = JSON.parse(listed.stdout) as Record<string, unknown>[];
  t.ok(row, 'the key is listed');
  const { secret, ...withoutSecret } = pair;
  t.type(secret, 'string', 'create shows the secret');
  t.same(Object.keys(row ?? {}).sort(), Object.keys(withoutSecret).sort(), 'the same fields, but the secret');
  t.same(row, withoutSecret, 'and the same values');
  t.match(row, { key: /^fmk_/, account: 'acme', scopes: ['read'], last_used_at: null, revoked_at: null });
});
