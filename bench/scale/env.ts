/** Reads a benchmark's numeric settings: a whole number at least `min`, else a message naming what came. */
export function whole(value: string | undefined, fallback: number, min = 1): number {
  const parsed = Number(value ?? fallback);
  if (!Number.isInteger(parsed) || parsed < min) throw new Error(`Expected a whole number of at least ${min}, got "${value}"`);
  return parsed;
}

/** A comma-separated list of whole numbers. */
export const wholeList = (value: string | undefined, fallback: string): number[] =>
  (value ?? fallback)
    .split(',')
    .map((text) => text.trim())
    .filter((text) => text.length > 0)
    .map((text) => whole(text, 0));
