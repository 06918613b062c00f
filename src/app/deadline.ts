/** What `Deadline.race` returns for work that did not finish in time. */
export const late = Symbol('late');

export interface Deadline {
  /** The work's result, or `late` once the deadline passes (the work is left to finish on its own, its failure ignored). */
  race<T>(work: Promise<T>): Promise<T | typeof late>;
  readonly passed: boolean;
}

/**
 * One time budget shared by several steps (a discovery's page fetch, resolvers and confirmations).
 * `Infinity` is no budget: each step is bounded by the fetcher's own timeout only.
 */
export function startDeadline(ms: number): Deadline {
  const end = Date.now() + ms;
  return {
    get passed() {
      return Date.now() >= end;
    },
    async race<T>(work: Promise<T>): Promise<T | typeof late> {
      if (!Number.isFinite(ms)) return work;
      // A rejection after the deadline has no one awaiting it; unhandled, it would end the process.
      work.catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<typeof late>((resolve) => {
        timer = setTimeout(() => resolve(late), Math.max(0, end - Date.now()));
      });
      try {
        return await Promise.race([work, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
