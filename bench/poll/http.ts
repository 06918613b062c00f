import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { createKey } from '../../src/app/api-keys.js';
import { createAuthenticator } from '../../src/app/authenticate.js';
import { createFeed } from '../../src/app/create-feed.js';
import { composeRuntime } from '../../src/main/compose.js';
import { loadConfig } from '../../src/main/config.js';
import { createLogger } from '../../src/main/logger.js';
import { freePort, startRole, stopChild } from '../feedmill-binary.js';
import type { BareRequest } from './bare-child.js';
import type { LoadRequest, LoadResult } from './load-child.js';
import type { Deployment } from './modes.js';
import type { PollSource } from './source.js';

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

export interface HttpPlan {
  runs: number;
  items: number;
  connections: number;
  warmupSeconds: number;
  seconds: number;
}

/** Requests per second of each target, one entry per run. */
export interface HttpCase {
  mode: string;
  json: LoadResult[];
  bareJsonBytes: LoadResult[];
  bareJsonObject: LoadResult[];
  xml: LoadResult[];
  bareXml: LoadResult[];
  /** Bare Fastify sending the XML Buffer: the part of the gap that is Fastify's own. */
  bareFastifyXml: LoadResult[];
}

/** A key and one feed of `items` items, written through the use cases into the deployment's store. */
async function seed(env: Record<string, string | undefined>, url: string): Promise<{ authorization: string; feedId: string }> {
  const runtime = await composeRuntime(loadConfig(env), createLogger({ logLevel: 'warn' }), 'api');
  try {
    const key = await createKey(runtime.deps, 'bench', ['read', 'write']);
    const authorization = `Bearer ${key.key}:${key.secret}`;
    const principal = await createAuthenticator(runtime.deps)(authorization);
    const { feed } = await createFeed(runtime.deps, principal, { url });
    return { authorization, feedId: feed.id };
  } finally {
    await runtime.close();
  }
}

async function load(target: Omit<LoadRequest, 'connections' | 'warmupSeconds' | 'seconds'>, plan: HttpPlan): Promise<LoadResult> {
  const request: LoadRequest = { ...target, connections: plan.connections, warmupSeconds: plan.warmupSeconds, seconds: plan.seconds };
  const child = fork(here('./load-child.js'), [JSON.stringify(request)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const result = new Promise<LoadResult>((resolve, reject) => {
    child.once('message', (message: LoadResult) => resolve(message));
    child.once('exit', (code) => reject(new Error(`The load generator exited with ${code} before reporting`)));
  });
  const answer = await result;
  if (answer.errors > 0)
    throw new Error(`Expected only 200s from ${target.origin}${target.path}, got ${answer.errors} other answers or errors`);
  return answer;
}

async function startBare(request: BareRequest): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(here('./bare-child.js'), [JSON.stringify(request)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`The bare server exited with ${code} before listening`)));
  });
  return { child, port };
}

/**
 * One deployment: seeds a feed of `plan.items` items, starts `feedmill api` and the three bare
 * servers with its certificate, then alternates the targets `plan.runs` times so that noise on
 * the shared machine falls on all of them alike.
 */
export async function runHttpCase(source: PollSource, deployment: Deployment, plan: HttpPlan): Promise<HttpCase> {
  source.mode = 'stable';
  const port = await freePort();
  const env = { ...process.env, ...deployment.env, FEEDMILL_PORT: String(port), FEEDMILL_RATE_LIMIT: '1000000' };
  const { authorization, feedId } = await seed(env, source.httpFeedUrl(plan.items));
  // FEEDMILL_BENCH_PROFILE_DIR: a V8 CPU profile of the API process, written when it stops.
  const api = await startRole('api', env, deployment.dataDir, process.env.FEEDMILL_BENCH_PROFILE_DIR);
  const children: ChildProcess[] = [api.child];
  try {
    const origin = `https://127.0.0.1:${port}`;
    const dispatcher = new Agent({ connect: { ca: api.ca, servername: 'localhost' } });
    const get = async (path: string, headers: Record<string, string> = {}) => {
      const response = await request(`${origin}${path}`, { dispatcher, headers });
      const body = Buffer.from(await response.body.arrayBuffer());
      if (response.statusCode !== 200)
        throw new Error(`Expected 200 from ${path}, got ${response.statusCode}: ${body.toString('utf8').slice(0, 200)}`);
      return { body, contentType: String(response.headers['content-type']) };
    };
    const json = await get(`/v1/feeds/${feedId}`, { authorization });
    const xml = await get(`/feeds/${feedId}.xml`);
    await dispatcher.close();
    const items = (JSON.parse(json.body.toString('utf8')) as { items: unknown[] }).items.length;
    if (items !== plan.items) throw new Error(`Expected ${plan.items} items in GET /v1/feeds/:id, got ${items}`);
    process.stderr.write(`  ${deployment.mode}: GET /v1/feeds/:id is ${json.body.length} bytes, the hosted XML ${xml.body.length} bytes\n`);

    const tls = { cert: api.ca, key: readFileSync(join(deployment.dataDir, 'tls', 'self-signed-key.pem'), 'utf8') };
    const bare = async (kind: BareRequest['kind'], payload: { body: Buffer; contentType: string }) => {
      const bodyFile = join(deployment.dataDir, `bare-${children.length}.body`);
      writeFileSync(bodyFile, payload.body);
      const server = await startBare({ kind, bodyFile, contentType: payload.contentType, ...tls });
      children.push(server.child);
      return `https://127.0.0.1:${server.port}`;
    };
    const bareBytes = await bare('fastify-bytes', json);
    const bareObject = await bare('fastify-object', json);
    const bareXml = await bare('node-https', xml);
    const bareFastifyXml = await bare('fastify-bytes', xml);

    const result: HttpCase = {
      mode: deployment.mode,
      json: [],
      bareJsonBytes: [],
      bareJsonObject: [],
      xml: [],
      bareXml: [],
      bareFastifyXml: [],
    };
    for (let run = 1; run <= plan.runs; run++) {
      result.json.push(await load({ origin, path: `/v1/feeds/${feedId}`, headers: { authorization }, ca: api.ca }, plan));
      result.bareJsonBytes.push(await load({ origin: bareBytes, path: `/v1/feeds/${feedId}`, headers: {}, ca: api.ca }, plan));
      result.bareJsonObject.push(await load({ origin: bareObject, path: `/v1/feeds/${feedId}`, headers: {}, ca: api.ca }, plan));
      result.xml.push(await load({ origin, path: `/feeds/${feedId}.xml`, headers: {}, ca: api.ca }, plan));
      result.bareXml.push(await load({ origin: bareXml, path: `/feeds/${feedId}.xml`, headers: {}, ca: api.ca }, plan));
      result.bareFastifyXml.push(await load({ origin: bareFastifyXml, path: `/feeds/${feedId}.xml`, headers: {}, ca: api.ca }, plan));
      const last = (list: LoadResult[]) => list.at(-1)?.requestsPerSecond.toFixed(0);
      process.stderr.write(
        `  ${deployment.mode} run ${run}: json ${last(result.json)}/s (bare bytes ${last(result.bareJsonBytes)}, object ${last(result.bareJsonObject)}), xml ${last(result.xml)}/s (bare ${last(result.bareXml)}, Fastify ${last(result.bareFastifyXml)})\n`,
      );
    }
    return result;
  } finally {
    for (const child of children.reverse()) await stopChild(child);
  }
}
