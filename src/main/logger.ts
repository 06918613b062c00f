import { pino, type Logger } from 'pino';
import type { Config } from './config.js';

/** JSON logs; credentials never reach them. */
export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    redact: { paths: ['req.headers.authorization', 'headers.authorization', 'secret', '*.secret'], censor: '[redacted]' },
  });
}
