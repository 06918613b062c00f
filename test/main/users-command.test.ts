import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { openEmbeddedStore } from '../../src/adapters/embedded-store/index.js';
import { verifyPassword } from '../../src/crypto/secret-hash.js';
import { repoRoot } from '../fixtures/repo-root.js';

const cli = join(repoRoot, 'dist', 'src', 'main', 'cli.js');
// A dozen CLI processes, each starting Node and hashing a password at OWASP's cost (128 MiB, about
// 0.4 s on a quiet machine and several times that on a loaded one): past tap's 120 s for the file.
t.setTimeout(600_000);

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `feedmill users …` as a process, with `stdin` piped in (or an empty, closed stdin). */
function users(dataDir: string, args: string[], stdin = ''): Promise<Outcome> {
  const child = spawn(process.execPath, [cli, 'users', ...args], {
    env: { ...process.env, FEEDMILL_DATA_DIR: dataDir, FEEDMILL_STORE: 'embedded' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(stdin);
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** The stored password hash of `email`, read from the data directory's store. */
async function storedHash(dataDir: string, email: string): Promise<string | undefined> {
  const store = openEmbeddedStore({ file: join(dataDir, 'feedmill.sqlite'), schemaDir: join(repoRoot, 'schema', 'embedded') });
  try {
    return (await store.users.get(email))?.passwordHash;
  } finally {
    store.close();
  }
}

function dataDirFor(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'feedmill-users-cli-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

t.test('create, list, reset-password and delete a user', async (t) => {
  const dir = dataDirFor(t);
  const created = await users(
    dir,
    ['create', '--account', 'acme', '--email', 'Alice@Example.org', '--password-stdin'],
    'correct horse battery\n',
  );
  t.equal(created.code, 0, created.stderr);
  t.match(created.stdout, /Created user alice@example\.org in account acme/);
  t.notMatch(created.stdout + created.stderr, 'correct horse battery', 'the password is never printed');
  t.ok(
    await verifyPassword('correct horse battery', (await storedHash(dir, 'alice@example.org')) ?? ''),
    'the piped password, without its line break, is the password',
  );

  const listed = await users(dir, ['list']);
  t.equal(listed.code, 0, listed.stderr);
  t.match(listed.stdout, /^alice@example\.org {2}account=acme {2}created=\d{4}-\d\d-\d\dT/);
  const json = JSON.parse((await users(dir, ['list', '--json'])).stdout) as Record<string, unknown>[];
  t.match(json, [{ email: 'alice@example.org', accountId: 'acme' }]);
  t.notOk(json[0] && 'passwordHash' in json[0], 'no hash is listed');

  const duplicate = await users(
    dir,
    ['create', '--account', 'acme', '--email', 'alice@example.org', '--password-stdin'],
    'another long passphrase',
  );
  t.equal(duplicate.code, 1);
  t.match(duplicate.stderr, /exists already/);

  const reset = await users(dir, ['reset-password', 'alice@example.org', '--password-stdin'], 'another long passphrase');
  t.equal(reset.code, 0, reset.stderr);
  const hash = (await storedHash(dir, 'alice@example.org')) ?? '';
  t.ok(await verifyPassword('another long passphrase', hash), 'the new password is set');
  t.notOk(await verifyPassword('correct horse battery', hash), 'the old one is gone');

  const deleted = await users(dir, ['delete', 'alice@example.org']);
  t.equal(deleted.code, 0, deleted.stderr);
  t.equal((await users(dir, ['list'])).stdout, '', 'nobody is left');
  const again = await users(dir, ['delete', 'alice@example.org']);
  t.equal(again.code, 1);
  t.match(again.stderr, /No user with the email `alice@example\.org`/);
  const unknownReset = await users(dir, ['reset-password', 'bob@example.org', '--password-stdin'], 'another long passphrase');
  t.equal(unknownReset.code, 1);
  t.match(unknownReset.stderr, /No user with the email `bob@example\.org`/);
});

t.test('a too-short password is refused with the rule, not echoed, and nothing is created', async (t) => {
  const dir = dataDirFor(t);
  const outcome = await users(dir, ['create', '--account', 'acme', '--email', 'a@example.org', '--password-stdin'], 'elevenchars');
  t.equal(outcome.code, 1);
  t.match(outcome.stderr, 'Expected `password` to be a password of 12 to 1024 characters, got 11 characters');
  t.notMatch(outcome.stderr, 'elevenchars');
  t.equal((await users(dir, ['list'])).stdout, '');
});

t.test('without a terminal and without --password-stdin it exits 2 and says to use --password-stdin', async (t) => {
  const dir = dataDirFor(t);
  const outcome = await users(dir, ['create', '--account', 'acme', '--email', 'a@example.org'], 'correct horse battery\n');
  t.equal(outcome.code, 2);
  t.match(outcome.stderr, /--password-stdin/);
  t.equal((await users(dir, ['list'])).stdout, '');
  const bad = await users(
    dir,
    ['create', '--account', 'no spaces allowed', '--email', 'a@example.org', '--password-stdin'],
    'correct horse battery',
  );
  t.equal(bad.code, 1);
  t.match(bad.stderr, /account name.*got "no spaces allowed"/);
});

/**
 * Runs `feedmill users create` on a pseudo-terminal (util-linux `script`), answering each prompt
 * once it appears: what the terminal shows is the whole transcript, so a password that was echoed
 * would be in it.
 */
function onTerminal(dataDir: string, email: string, answers: string[]): Promise<Outcome> {
  const command = `'${process.execPath}' '${cli}' users create --account acme --email ${email}`;
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    env: { ...process.env, FEEDMILL_DATA_DIR: dataDir, FEEDMILL_STORE: 'embedded' },
  });
  let stdout = '';
  let answered = 0;
  const prompts = ['Password: ', 'Repeat password: '];
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    const prompt = prompts[answered];
    if (answered < answers.length && prompt !== undefined && stdout.includes(prompt)) {
      child.stdin.write(`${answers[answered]}\r`);
      answered += 1;
    }
  });
  return new Promise((resolve) =>
    child.once('close', (code) => {
      child.stdin.destroy();
      resolve({ code, stdout, stderr: '' });
    }),
  );
}

t.test('on a terminal the password is asked twice without echo', async (t) => {
  const dir = dataDirFor(t);
  const outcome = await onTerminal(dir, 'tty@example.org', ['correct horse battery', 'correct horse battery']);
  t.equal(outcome.code, 0, outcome.stdout);
  t.match(outcome.stdout, /Password: [\s\S]*Repeat password: [\s\S]*Created user tty@example\.org/);
  t.notMatch(outcome.stdout, 'correct horse battery', 'nothing typed was shown');
  t.ok(await verifyPassword('correct horse battery', (await storedHash(dir, 'tty@example.org')) ?? ''));

  const mismatch = await onTerminal(dir, 'other@example.org', ['correct horse battery', 'correct horse batterz']);
  t.not(mismatch.code, 0);
  t.match(mismatch.stdout, /the two passwords differ/);
  t.equal(await storedHash(dir, 'other@example.org'), undefined, 'nothing was created');
});
