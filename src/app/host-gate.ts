/**
 * Politeness towards the sites behind full-text feeds: at most `perHost` article fetches at once to
 * one host, and after each a pause of `pauseMs` before its slot takes the next. One per process
 * (`AppDeps.articleGate`), shared by its article jobs and its previews. Per process: a cluster of N
 * workers may reach a host N times as often (docs/full-text.md says so).
 */
export type HostGate = <T>(host: string, task: () => Promise<T>) => Promise<T>;

export interface HostGateOptions {
  /** @default 2 */
  perHost: number;
  /** @default 1000 */
  pauseMs: number;
}

/**
 * The host an article page's address counts against: its host name, so `https://a.example` and
 * `http://a.example:8080` share one lane. An address that does not parse gets the lane '' (the
 * fetcher refuses it with `invalid_url`, whatever the lane).
 */
export function articleHost(url: string): string {
  return URL.canParse(url) ? new URL(url).hostname : '';
}

export function createHostGate(options: HostGateOptions): HostGate {
  const lanes = new Map<string, { busy: number; waiting: (() => void)[] }>();

  const enter = async (host: string): Promise<void> => {
    const lane = lanes.get(host) ?? { busy: 0, waiting: [] };
    lanes.set(host, lane);
    if (lane.busy < options.perHost) {
      lane.busy += 1;
      return;
    }
    // The slot is handed over by `leave`, still counted busy: no newcomer can overtake the queue.
    await new Promise<void>((resolve) => lane.waiting.push(resolve));
  };

  const leave = (host: string): void => {
    const lane = lanes.get(host);
    if (!lane) return;
    const next = lane.waiting.shift();
    if (next) {
      next();
      return;
    }
    lane.busy -= 1;
    if (lane.busy === 0) lanes.delete(host);
  };

  return async (host, task) => {
    await enter(host);
    try {
      return await task();
    } finally {
      if (options.pauseMs > 0) setTimeout(() => leave(host), options.pauseMs);
      else leave(host);
    }
  };
}
