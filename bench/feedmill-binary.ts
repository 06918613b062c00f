/**
 * The `feedmill` binary as a user runs it (`node dist/src/main/cli.js <role>`), for the benchmarks
 * that measure the service over its real sockets (`poll`, `load`).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Agent, request } from 'undici';

const cliPath = fileURLToPath(new URL('../src/main/cli.js', import.meta.url));

export type Role = 'all' | 'api' | 'worker';

/** A role's process, and the API's self-signed certificate (empty for a worker). */
export interface RunningRole {
  child: ChildProcess;
  ca: string;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** SIGTERM (the graceful shutdown), SIGKILL if it has not exited 15 s later. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Runs a one-shot command (`keys create …`, `migrate`) to completion; its standard output. */
export async function runCommand(args: readonly string[], env: Record<string, string | undefined>): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [cliPath, ...args], { env });
  return stdout;
}

/** Polls `probe` every 200 ms until it answers true; fails when the child exits or after 60 s. */
async function waitFor(child: ChildProcess, what: string, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Expected ${what}, but the process exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`Expected ${what} within 60 s`);
    if (await probe().catch(() => false)) return;
    await sleep(200);
  }
}

/**
 * Starts `feedmill <role>` with `env` and resolves once it is ready: the API roles when `/healthz`
 * answers 200 on FEEDMILL_PORT over HTTPS, a worker when `/readyz` answers 200 on its
 * FEEDMILL_METRICS_PORT (which must not be 0). `profileDir`: a V8 CPU profile written when it stops.
 */
export async function startRole(
  role: Role,
  env: Record<string, string | undefined>,
  dataDir: string,
  profileDir?: string,
): Promise<RunningRole> {
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, [...profile, cliPath, role], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    if (role === 'worker') {
      const url = `http://127.0.0.1:${env.FEEDMILL_METRICS_PORT}/readyz`;
      await waitFor(child, `feedmill worker to answer ${url}`, async () => {
        const response = await request(url);
        await response.body.dump();
        return response.statusCode === 200;
      });
      return { child, ca: '' };
    }
    const insecure = new Agent({ connect: { rejectUnauthorized: false } });
    try {
      const url = `https://127.0.0.1:${env.FEEDMILL_PORT}/healthz`;
      await waitFor(child, `feedmill ${role} to answer ${url}`, async () => {
        const response = await request(url, { dispatcher: insecure });
        await response.body.dump();
        return response.statusCode === 200;
      });
    } finally {
      await insecure.close();
    }
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  const certFile = join(dataDir, 'tls', 'self-signed-cert.pem');
  if (!existsSync(certFile)) {
    await stopChild(child);
    throw new Error(`Expected the API's self-signed certificate at ${certFile}`);
  }
  return { child, ca: readFileSync(certFile, 'utf8') };
}
