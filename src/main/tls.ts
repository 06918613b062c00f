import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import type { Config } from './config.js';

export interface TlsPair {
  key: string;
  cert: string;
  /** For the start-up summary: the configured files, a self-signed pair made now, or one made before. */
  source: 'files' | 'generated' | 'reused';
}

/**
 * The configured certificate, or a self-signed one for localhost made once in the data directory
 * and reused after restarts (so a client that pinned it keeps working).
 */
export async function loadTls(config: Pick<Config, 'tlsCert' | 'tlsKey' | 'dataDir'>): Promise<TlsPair> {
  if (config.tlsCert !== undefined && config.tlsKey !== undefined) {
    return { cert: await readFile(config.tlsCert, 'utf8'), key: await readFile(config.tlsKey, 'utf8'), source: 'files' };
  }
  const dir = join(config.dataDir, 'tls');
  const certFile = join(dir, 'self-signed-cert.pem');
  const keyFile = join(dir, 'self-signed-key.pem');
  if (existsSync(certFile) && existsSync(keyFile)) {
    return { cert: await readFile(certFile, 'utf8'), key: await readFile(keyFile, 'utf8'), source: 'reused' };
  }
  const notAfter = new Date();
  notAfter.setFullYear(notAfter.getFullYear() + 5);
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate: notAfter,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  await mkdir(dir, { recursive: true });
  await writeFile(keyFile, pems.private, { mode: 0o600 });
  await writeFile(certFile, pems.cert);
  return { cert: pems.cert, key: pems.private, source: 'generated' };
}
