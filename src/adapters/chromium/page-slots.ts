/**
 * At most `size` pages at once; the rest wait in arrival order. Counts what waits and what runs
 * for `/readyz` and the metrics.
 */
export interface PageSlots {
  run<T>(task: () => Promise<T>): Promise<T>;
  readonly queued: number;
  readonly running: number;
}

export function createPageSlots(size: number): PageSlots {
  let running = 0;
  const waiting: (() => void)[] = [];
  const leave = (): void => {
    const next = waiting.shift();
    // The slot passes straight to the next page, still counted: no newcomer can overtake the queue.
    if (next) next();
    else running -= 1;
  };
  return {
    async run(task) {
      if (running < size) running += 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        leave();
      }
    },
    get queued() {
      return waiting.length;
    },
    get running() {
      return running;
    },
  };
}
