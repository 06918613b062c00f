/**
 * One line of progress for a terminal: `[#######-------------]  7/20  created 5 · existing 1 · failed 1`.
 * Hand-written: no progress-bar library is among the dependencies, and this is one line redrawn
 * with `\r`, which needs none of their terminal handling.
 */
export function progressLine(done: number, total: number, counts: Readonly<Record<string, number>>, width = 24): string {
  const filled = total === 0 ? width : Math.round((done / total) * width);
  const tally = Object.entries(counts)
    .map(([name, count]) => `${name} ${count}`)
    .join(' · ');
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(done).padStart(String(total).length)}/${total}${tally ? `  ${tally}` : ''}`;
}
