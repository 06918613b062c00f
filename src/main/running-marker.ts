import { readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const markerFile = (dataDir: string): string => join(dataDir, 'feedmill.pid');

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else; it is still running.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Says that a service runs on this data directory (`feedmill.pid`), so `feedmill restore` can refuse
 * to replace the store under it. Returns the function that clears the mark at shutdown; a process
 * killed outright leaves the file, which `runningPid` then sees as stale.
 */
export function markRunning(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(markerFile(dataDir), `${process.pid}\n`);
  return () => {
    if (runningPid(dataDir) === process.pid) rmSync(markerFile(dataDir), { force: true });
  };
}

/** The pid of the service running on this data directory, if one is. */
export function runningPid(dataDir: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(markerFile(dataDir), 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number.parseInt(text, 10);
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : undefined;
}
