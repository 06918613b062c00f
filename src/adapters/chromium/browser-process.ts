import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { descendants } from './process-memory.js';
import { isolationSwitches, quietSwitches } from './launch-switches.js';

export interface LaunchSettings {
  executablePath: string;
  /** Chromium's sandbox off: needed when running as root (a container). */
  noSandbox: boolean;
}

/** A running browser and the process id its memory is read from (undefined where /proc is missing). */
export interface BrowserProcess {
  browser: Browser;
  pid: number | undefined;
}

async function commandLine(pid: number): Promise<string> {
  return readFile(`/proc/${pid}/cmdline`, 'latin1').catch(() => '');
}

/**
 * Starts one headless Chromium with the network isolation switches. playwright-core does not say
 * which process it started, so it is found as the new child of this process that speaks the
 * DevTools protocol over a pipe (launches are one at a time, see the renderer).
 */
export async function launchBrowser(settings: LaunchSettings): Promise<BrowserProcess> {
  // Loaded on the first launch: playwright-core is ~80 MB resident, and a process that never
  // renders (no page needs a browser, or none since start) should not carry it.
  const { chromium } = await import('playwright-core');
  const before = new Set((await descendants(process.pid)).map((entry) => entry.pid));
  const browser = await chromium.launch({
    executablePath: settings.executablePath,
    headless: true,
    chromiumSandbox: !settings.noSandbox,
    args: [...isolationSwitches, ...quietSwitches],
  });
  let pid: number | undefined;
  for (const entry of await descendants(process.pid)) {
    if (entry.ppid !== process.pid || before.has(entry.pid)) continue;
    if ((await commandLine(entry.pid)).includes('--remote-debugging-pipe')) pid = entry.pid;
  }
  return { browser, pid };
}
