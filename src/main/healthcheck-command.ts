import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';
import { parseArgs } from 'node:util';
import type { Config } from './config.js';
import { ExitError } from './exit-error.js';

const usage = 'usage: feedmill healthcheck [--ready] [--url URL]';

/** Where this process's own listener answers: a wildcard address is reached on loopback. */
const local = (host: string): string => (host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host);

/** The address this container's own probes answer at. */
function ownUrl(config: Pick<Config, 'host' | 'port' | 'metricsPort'>, ready: boolean): URL {
  const host = local(config.host);
  const overHttps = config.metricsPort === 0;
  const url = new URL(`${overHttps ? 'https' : 'http'}://localhost`);
  url.hostname = host.includes(':') ? `[${host}]` : host;
  url.port = String(overHttps ? config.port : config.metricsPort);
  url.pathname = ready ? '/readyz' : '/healthz';
  return url;
}

/** The status code `url` answers with, or the network error's code. */
function statusOf(url: URL): Promise<number | string> {
  // autoSelectFamily: `localhost` may resolve to ::1 first while the listener took 127.0.0.1; try each.
  // The certificate is not verified: by default it is the self-signed one the API made itself.
  const options = { timeout: 4_000, autoSelectFamily: true, rejectUnauthorized: false };
  return new Promise((resolve) => {
    const done = (response: { statusCode?: number; resume(): void }): void => {
      response.resume();
      resolve(response.statusCode ?? 0);
    };
    const request = url.protocol === 'https:' ? httpsGet(url, options, done) : httpGet(url, options, done);
    request.on('timeout', () => request.destroy(Object.assign(new Error('no answer within 4 s'), { code: 'ETIMEDOUT' })));
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/**
 * `feedmill healthcheck [--ready] [--url URL]`: the image's HEALTHCHECK and the chart's `helm test`,
 * with no curl in the image. By default it asks this container's probe port (every role has one)
 * for `/healthz`, or `/readyz` with `--ready`; with the probe port off (FEEDMILL_METRICS_PORT=0),
 * the API's HTTPS port. `--url` asks another address (a Service). Exit 0 on 200, else 1.
 */
export async function healthcheckCommand(
  args: string[],
  config: Pick<Config, 'host' | 'port' | 'metricsPort'>,
  print: (line: string) => void,
): Promise<void> {
  let values: { ready?: boolean; url?: string };
  try {
    ({ values } = parseArgs({ args, options: { ready: { type: 'boolean' }, url: { type: 'string' } } }));
  } catch (error) {
    throw new ExitError(`${(error as Error).message}; ${usage}`, 2);
  }
  let target: URL;
  try {
    target = values.url === undefined ? ownUrl(config, values.ready === true) : new URL(values.url);
  } catch {
    throw new ExitError(`--url: expected an absolute http:// or https:// URL, got \`${values.url ?? ''}\`; ${usage}`, 2);
  }
  if (!/^https?:$/.test(target.protocol))
    throw new ExitError(`--url: expected an absolute http:// or https:// URL, got \`${values.url ?? ''}\`; ${usage}`, 2);
  const status = await statusOf(target);
  if (status !== 200) throw new ExitError(`unhealthy: ${target.href} answered ${status}`, 1);
  print(`healthy: ${target.href} answered 200`);
}
