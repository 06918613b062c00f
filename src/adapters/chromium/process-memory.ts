import { readdir, readFile } from 'node:fs/promises';

interface ProcessEntry {
  pid: number;
  ppid: number;
  rssBytes: number;
}

const pageSize = 4096;

/** /proc/<pid>/stat: the parent is field 4 and the resident pages field 24, counted after the command's closing parenthesis. */
async function readEntry(pid: number): Promise<ProcessEntry | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, ppid: Number(fields[1]), rssBytes: Number(fields[21]) * pageSize };
  } catch {
    return undefined; // gone between the listing and the read
  }
}

/**
 * The processes started under `rootPid` (not itself), with their resident memory. Linux only:
 * elsewhere the list is empty and the memory limit is never reached.
 */
export async function descendants(rootPid: number): Promise<ProcessEntry[]> {
  let names: string[];
  try {
    names = await readdir('/proc');
  } catch {
    return [];
  }
  const entries = await Promise.all(names.filter((name) => /^\d+$/.test(name)).map((name) => readEntry(Number(name))));
  const children = new Map<number, ProcessEntry[]>();
  for (const entry of entries) {
    if (entry === undefined) continue;
    children.set(entry.ppid, [...(children.get(entry.ppid) ?? []), entry]);
  }
  const found: ProcessEntry[] = [];
  for (let queue = [...(children.get(rootPid) ?? [])]; queue.length > 0;) {
    const entry = queue.shift();
    if (entry === undefined) break;
    found.push(entry);
    queue.push(...(children.get(entry.pid) ?? []));
  }
  return found;
}

/**
 * A process's proportional set size (/proc/<pid>/smaps_rollup `Pss`): pages shared by the browser's
 * processes are split between them instead of counted in each, as resident size would.
 */
async function proportionalBytes(entry: ProcessEntry): Promise<number> {
  try {
    const rollup = await readFile(`/proc/${entry.pid}/smaps_rollup`, 'latin1');
    const kib = /^Pss:\s+(\d+) kB/m.exec(rollup)?.[1];
    return kib === undefined ? entry.rssBytes : Number(kib) * 1024;
  } catch {
    return entry.rssBytes;
  }
}

/**
 * Memory of a browser: the process `browserPid` and everything it started (its GPU, network and
 * renderer processes), shared pages split between them.
 */
export async function browserMemoryBytes(browserPid: number): Promise<number> {
  const own = await readEntry(browserPid);
  const tree = [...(own ? [own] : []), ...(await descendants(browserPid))];
  return (await Promise.all(tree.map(proportionalBytes))).reduce((sum, bytes) => sum + bytes, 0);
}
