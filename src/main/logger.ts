import { pino, type Logger } from 'pino';
import type { Config } from './config.js';
import { prettyDestination } from './pretty-log.js';

export type LogFormat = 'pretty' | 'json';

/** `FEEDMILL_LOG_FORMAT`, else readable lines for a person at a terminal and JSON for a collector. */
export function logFormatOf(config: Pick<Config, 'logFormat'>, out: { isTTY?: boolean } = process.stdout): LogFormat {
  return config.logFormat ?? (out.isTTY ? 'pretty' : 'json');
}

/** Logs in the configured format; credentials never reach them. */
export function createLogger(
  config: Pick<Config, 'logLevel'> & Partial<Pick<Config, 'logFormat'>>,
  out: NodeJS.WriteStream = process.stdout,
): Logger {
  const options = {
    level: config.logLevel,
    redact: { paths: ['req.headers.authorization', 'headers.authorization', 'secret', '*.secret'], censor: '[redacted]' },
  };
  if (logFormatOf({ logFormat: config.logFormat }, out) === 'json') return out === process.stdout ? pino(options) : pino(options, out);
  // https://no-color.org: colours only on a terminal, and not when NO_COLOR is set.
  const colours = out.isTTY === true && (process.env.NO_COLOR ?? '') === '';
  return pino(options, prettyDestination(out, colours));
}
