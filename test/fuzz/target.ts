/**
 * What a fuzz target declares. A target is one file `test/fuzz/targets/<name>.ts` exporting
 * `target`; the runner (test/fuzz/run.ts) finds it by its file name, so adding one is that file
 * and a seed directory `test/fuzz/seeds/<name>/`.
 */
export interface FuzzTarget {
  /** Where seeds come from besides `test/fuzz/seeds/<name>/`: directories relative to the repository root. */
  seedDirectories: readonly string[];
  /** A libFuzzer-format dictionary under test/fuzz/dictionaries/ (without `.dict`) whose tokens mutations insert. */
  dictionary?: string;
  /**
   * Mutations CI's bounded pass runs (`npm run fuzz -- all --ci`), about ten seconds' worth on a
   * loaded 2-core machine; 3000 when absent. A count, not a time: with the fixed seed it makes the
   * pass the same inputs on every machine.
   */
  ciRuns?: number;
  /**
   * Feeds one input to the code under test and checks what came out (test/fuzz/safety.ts).
   * Returns normally for an accepted input and for a documented refusal; throws a `Finding` for
   * anything else.
   */
  run(data: Uint8Array): void;
}
