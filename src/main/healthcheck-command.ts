import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';
import type { Config } from './config.js';
import { ExitError } from './exit-error.js';

/** Where this process's own listener answers: a wildcard address is reached on loopback. */
const local = (host: string): string => (host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host);

/**
 * `feedmill healthcheck [--ready]`: the image's HEALTHCHECK, with no curl in the image. Asks this
 * container's probe port (every role has one) for `/healthz`, or `/readyz` with `--ready`; with
 * the probe port off (FEEDMILL_METRICS_PORT=0) it asks the API's HTTPS port instead, without
 * verifying the certificate (by default the self-signed one). Exit 0 when it answers 200, else 1.
 */
export async function healthcheckCommand(args: string[], config: Pick<Config, 'host' | 'port' | 'metricsPort'>, print: (line: string) => void): Promise<void> {
  const unknown = args.filter((arg) => arg !== '--ready');
  if (unknown.length > 0) throw new ExitError(`unknown argument \`${unknown[0] ?? ''}\`; usage: feedmill healthcheck [--ready]`, 2);
  const path = args.includes('--ready') ? '/readyz' : '/healthz';
  const overHttps = config.metricsPort === 0;
  // autoSelectFamily: `localhost` may resolve to ::1 first while the listener took 127.0.0.1; try each.
  const options = { host: local(config.host), port: overHttps ? config.port : config.metricsPort, path, timeout: 4_000, autoSelectFamily: true };
  const target = `${overHttps ? 'https' : 'http'}://${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}${path}`;
  const status = await new Promise<number | string>((resolve) => {
    const request = overHttps ? httpsGet({ ...options, rejectUnauthorized: false }, done) : httpGet(options, done);
    function done(response: { statusCode?: number; resume(): void }): void {
      response.resume();
      resolve(response.statusCode ?? 0);
    }
    request.on('timeout', () => request.destroy(new Error('no answer within 4 s')));
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
  if (status !== 200) throw new ExitError(`unhealthy: ${target} answered ${status}`, 1);
  print(`healthy: ${target} answered 200`);
}
