import { request } from 'undici';
import { formatRows } from '../poll/table.js';
import { openFds, rssMb } from '../scale/proc-stats.js';
import { redisUsage } from '../scale/redis-usage.js';

/** One minute's reading of one process, or of Redis (`pid` -1). */
export interface Sample {
  minute: number;
  name: string;
  heapMb: number;
  rssMb: number;
  fds: number;
}

export interface Watched {
  name: string;
  pid: number;
  metricsUrl: string | undefined;
}

/** V8's used heap as the process's own /metrics reports it (prom-client's default metrics). */
async function heapMb(metricsUrl: string | undefined): Promise<number> {
  if (!metricsUrl) return Number.NaN;
  try {
    const response = await request(metricsUrl);
    const text = await response.body.text();
    const match = /^feedmill_nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\d+(?:\.\d+)?(?:e\+\d+)?)$/m.exec(text);
    return match ? Number(match[1]) / 1e6 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Reads every watched process, and Redis: `heapMb` holds the server's used_memory, `rssMb` this database's keys. */
export async function takeSamples(minute: number, watched: readonly Watched[], redisUrl: string): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (const process of watched) {
    samples.push({
      minute,
      name: process.name,
      heapMb: await heapMb(process.metricsUrl),
      rssMb: rssMb(process.pid),
      fds: openFds(process.pid),
    });
  }
  const redis = await redisUsage(redisUrl);
  samples.push({ minute, name: 'redis', heapMb: redis.usedMemory / 1e6, rssMb: redis.bytes / 1e6, fds: redis.keys });
  return samples;
}

const mean = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * Growth per process and figure: the mean of the samples in the last half of the run after the
 * warm-up against the mean of those in the first half, in percent. Means, not the first sample: a
 * heap is a saw (a collection every few minutes), and one sample near a low read +14.6% where the
 * halves differ by 7.1% (the hour of 2026-11-28, bench/README.md).
 */
export function growthTable(samples: readonly Sample[], warmupMinutes: number, lastMinute: number): { table: string; worst: number } {
  const names = [...new Set(samples.map((sample) => sample.name))];
  let worst = 0;
  const half = warmupMinutes + (lastMinute - warmupMinutes) / 2;
  const rows = names.map((name) => {
    const own = samples.filter((sample) => sample.name === name && sample.minute >= warmupMinutes);
    const early = own.filter((sample) => sample.minute < half);
    const late = own.filter((sample) => sample.minute >= half);
    const cell = (pick: (sample: Sample) => number, worstCounts: boolean): string => {
      if (early.length === 0 || late.length === 0) return '-';
      const before = mean(early.map(pick));
      const after = mean(late.map(pick));
      const growth = ((after - before) / before) * 100;
      if (worstCounts && Number.isFinite(growth)) worst = Math.max(worst, growth);
      return `${before.toFixed(1)} → ${after.toFixed(1)} (${growth >= 0 ? '+' : ''}${growth.toFixed(1)}%)`;
    };
    return name === 'redis'
      ? [
          name,
          `used_memory ${cell((sample) => sample.heapMb, false)}`,
          `this DB ${cell((sample) => sample.rssMb, true)}`,
          `keys ${cell((sample) => sample.fds, false)}`,
        ]
      : [name, cell((sample) => sample.heapMb, true), cell((sample) => sample.rssMb, true), cell((sample) => sample.fds, true)];
  });
  return { table: formatRows(['process', 'heap MB', 'RSS MB', 'open fds'], rows), worst };
}

/** Every sample, one row per minute and process. */
export function sampleTable(samples: readonly Sample[]): string {
  return formatRows(
    ['minute', 'process', 'heap MB (redis: used_memory)', 'RSS MB (redis: this DB)', 'fds (redis: keys)'],
    samples.map((sample) => [String(sample.minute), sample.name, sample.heapMb.toFixed(1), sample.rssMb.toFixed(1), String(sample.fds)]),
  );
}
