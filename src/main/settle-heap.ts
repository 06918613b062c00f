import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from 'pino';

/**
 * One full garbage collection once start-up is over. V8 collects only while the program allocates,
 * so a process that goes idle after start-up keeps for good the heap its imports, schema
 * compilation and first reads left: `feedmill all` held ~170 MB resident at rest, ~135 MB after one
 * collection (bench/README.md, "idle"). `--expose-gc` set at run time gives new contexts a `gc`
 * function (as jest's leak detector does), so no flag is needed on the `node` command. It costs
 * tens of milliseconds, once; where the runtime refuses, nothing happens but a debug line.
 */
export function settleHeap(log: Pick<Logger, 'debug'>): void {
  try {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as unknown;
    // Twice: the first frees the garbage, the second gives back the pages the first emptied.
    if (typeof collect === 'function') for (let pass = 0; pass < 2; pass++) (collect as () => void)();
  } catch (error) {
    log.debug({ err: error }, 'no garbage collection after start-up: this runtime does not expose it');
  }
}
