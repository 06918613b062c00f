import { publicUrlOf, type Config } from './config.js';
import type { TlsPair } from './tls.js';
import { version } from './version.js';

export interface StartupSummary {
  message: string;
  fields: Record<string, string | number | null>;
}

const tlsText: Record<TlsPair['source'], string> = {
  files: 'configured (FEEDMILL_TLS_CERT)',
  generated: 'self-signed, generated now',
  reused: 'self-signed, generated before',
};

/**
 * The one line an operator reads to know what started: version, role, store, scheduler, data
 * directory, ports, public address and where the certificate came from. The fields are what a
 * log collector indexes; the message says the same for a person.
 */
export function startupSummary(
  role: string,
  config: Config,
  facts: { tls: TlsPair['source'] | undefined; httpsPort: number | undefined; probesPort: number | undefined },
): StartupSummary {
  const scheduler = config.redisUrl ? 'bullmq (Redis)' : 'in-process';
  const fields = {
    version,
    node: process.version,
    role,
    store: config.store,
    scheduler,
    dataDir: config.dataDir,
    httpsPort: facts.httpsPort ?? null,
    probesPort: facts.probesPort ?? null,
    publicUrl: facts.tls ? publicUrlOf(config) : null,
    tls: facts.tls ? tlsText[facts.tls] : null,
  };
  const parts = [`role ${role}`, `store ${config.store}`, `scheduler ${scheduler}`, `data ${config.dataDir}`];
  if (facts.tls) parts.push(`HTTPS :${facts.httpsPort ?? config.port} at ${publicUrlOf(config)}`, `certificate ${tlsText[facts.tls]}`);
  parts.push(facts.probesPort ? `probes :${facts.probesPort}` : 'probes off');
  return { message: `feedmill ${version} started: ${parts.join(', ')}`, fields };
}
