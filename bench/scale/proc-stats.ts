import { readdirSync, readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc reports CPU time in these ticks. */
const ticksPerSecond = 100;

/** CPU time (user + system, every thread) of a process so far, ms; NaN once it is gone. */
export function cpuMs(pid: number): number {
  try {
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return Number.NaN;
  }
}

/** Resident set size, MB (VmRSS); NaN once the process is gone. */
export function rssMb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Open file descriptors (sockets included); NaN once the process is gone. */
export function openFds(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return Number.NaN;
  }
}
