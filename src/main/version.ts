import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository root: `dist/src/main` → three levels up. */
export const rootDir = fileURLToPath(new URL('../../../', import.meta.url));

export const version = (JSON.parse(readFileSync(`${rootDir}package.json`, 'utf8')) as { version: string }).version;
