import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * The browser this process renders with: `FEEDMILL_CHROMIUM_PATH` when it names an executable,
 * else `chromium` on the `PATH`; or why there is none, for the start-up line.
 */
export function findChromium(
  configured: string | undefined,
  // The system's search path, as a shell would use it: not a feedmill setting, so not in config.ts.
  path = process.env['PATH'] ?? '',
): { path: string } | { missing: string } {
  const executable = (file: string): boolean => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (configured !== undefined) {
    return executable(configured) ? { path: configured } : { missing: `FEEDMILL_CHROMIUM_PATH (${configured}) is not an executable file` };
  }
  const found = path
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, 'chromium'))
    .find(executable);
  return found ? { path: found } : { missing: 'no `chromium` on the PATH and FEEDMILL_CHROMIUM_PATH is not set' };
}
