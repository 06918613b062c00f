import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

type MachineTicks = { busy: number; total: number };

/** Busy and total jiffies of the whole machine, from /proc/stat (Linux); undefined elsewhere. */
export function machineTicks(): MachineTicks | undefined {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1, 9).map(Number);
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields;
    const busy = user + nice + system + irq + softirq + steal;
    return { busy, total: busy + idle + iowait };
  } catch {
    return undefined;
  }
}

/** Cores the whole machine kept busy on average between two readings; undefined where /proc/stat is not. */
export function busyCores(from: MachineTicks | undefined, to: MachineTicks | undefined): number | undefined {
  if (!from || !to) return undefined;
  return ((to.busy - from.busy) / Math.max(1, to.total - from.total)) * availableParallelism();
}

export interface CpuShare {
  /** Cores the whole machine kept busy on average over the window. */
  machine: number;
  /** Of which this benchmark (server process and subscriber child). */
  bench: number;
}

/** Starts measuring; `stop` takes the child's CPU microseconds spent in the same window. */
export function cpuWindow(): { stop(childMicros: number): CpuShare | undefined } {
  const startMachine = machineTicks();
  const startOwn = process.cpuUsage();
  const started = performance.now();
  return {
    stop(childMicros) {
      const machine = busyCores(startMachine, machineTicks());
      const own = process.cpuUsage(startOwn);
      const seconds = (performance.now() - started) / 1000;
      if (machine === undefined || seconds <= 0) return undefined;
      return { machine, bench: (own.user + own.system + childMicros) / 1e6 / seconds };
    },
  };
}
