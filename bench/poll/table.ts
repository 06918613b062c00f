/** The printed tables of the poll benchmark. */

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** A Markdown table, columns padded to their widest cell. */
export function formatRows(head: readonly string[], body: readonly (readonly string[])[]): string {
  const widths = head.map((title, column) => Math.max(title.length, ...body.map((line) => (line[column] ?? '').length)));
  const line = (cells: readonly string[]): string => `| ${cells.map((text, column) => text.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  return [line(head), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...body.map(line)].join('\n');
}
