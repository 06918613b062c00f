import { configSources, settings, type Config } from './config.js';

type Settings = typeof settings;

/** How a parsed value is written back in the form its variable takes. */
function shown(value: unknown): string {
  if (value === undefined) return '';
  if (Array.isArray(value)) return value.join(',');
  // FEEDMILL_STATIC_HOSTS: name=address pairs.
  if (value instanceof Map)
    return [...(value as Map<string, string[]>)].flatMap(([name, addresses]) => addresses.map((address) => `${name}=${address}`)).join(',');
  // A setting read from a file (FEEDMILL_PLATFORM_RULES) is shown by the file's path.
  if (typeof value === 'object' && value !== null && 'file' in value && typeof value.file === 'string') return value.file;
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** A credential is never printed; a Redis URL keeps its address, loses its password. */
function redacted(name: keyof Settings, value: unknown): string {
  if (value === undefined) return '';
  if (name === 'redisUrl') return shown(value).replace(/\/\/([^@/]*)@/, '//[redacted]@');
  return '[redacted]';
}

/**
 * `feedmill config [--json]`: every setting's effective value and where it came from (env, file,
 * default, unset), secrets redacted. What the process would run with, before it runs.
 */
export function configCommand(
  args: string[],
  config: Config,
  env: Readonly<Record<string, string | undefined>>,
  print: (line: string) => void,
): void {
  const sources = configSources(env);
  const rows = (Object.keys(settings) as (keyof Settings)[]).map((name) => {
    const row = settings[name];
    const value = row.secret ? redacted(name, config[name]) : shown(config[name]);
    return { name: row.env, value, source: sources[name] };
  });
  if (args.includes('--json')) {
    print(JSON.stringify(Object.fromEntries(rows.map((row) => [row.name, { value: row.value, source: row.source }])), null, 2));
    return;
  }
  const width = Math.max(...rows.map((row) => row.name.length));
  for (const row of rows)
    print(
      `${row.name.padEnd(width)}  ${row.value === '' ? '(unset)' : row.value}${row.source === 'env' || row.source === 'file' ? `  [${row.source}]` : ''}`,
    );
}
