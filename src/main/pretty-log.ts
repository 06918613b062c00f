import type { Writable } from 'node:stream';

/**
 * pino's JSON lines turned into one readable line each, for a person at a terminal:
 * `12:04:05.123 INFO  feedmill started  role=all store=embedded …`.
 *
 * pino-pretty would do this, but it is not a dependency of the project and the format needed is
 * small (no transports, no worker thread): a line of JSON in, a line of text out.
 */

const levels: Record<number, { name: string; colour: number }> = {
  10: { name: 'TRACE', colour: 90 },
  20: { name: 'DEBUG', colour: 36 },
  30: { name: 'INFO', colour: 32 },
  40: { name: 'WARN', colour: 33 },
  50: { name: 'ERROR', colour: 31 },
  60: { name: 'FATAL', colour: 35 },
};
// Fields every line has, or that the line's head already shows.
const omitted = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'v']);

const text = (value: unknown): string => {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
};

/** One pino JSON line as text; a line that is not JSON passes through unchanged. */
export function formatLine(line: string, colours: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.replace(/\n$/, '');
  }
  const paint = (code: number, value: string): string => (colours ? `\u001b[${code}m${value}\u001b[39m` : value);
  const level = levels[Number(entry.level)] ?? { name: String(entry.level), colour: 39 };
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 23) : '';
  const fields: string[] = [];
  let stack: string | undefined;
  for (const [key, value] of Object.entries(entry)) {
    if (omitted.has(key) || value === undefined) continue;
    if (key === 'err' && value !== null && typeof value === 'object') {
      const error = value as { message?: unknown; stack?: unknown };
      fields.push(`err=${text(error.message)}`);
      // A stack only for errors: for a warning (a dependency away, a retry) its message says enough.
      if (Number(entry.level) >= 50 && typeof error.stack === 'string') stack = error.stack;
      continue;
    }
    fields.push(`${paint(2, `${key}=`)}${text(value)}`);
  }
  const head = `${paint(90, time)} ${paint(level.colour, level.name.padEnd(5))} ${typeof entry.msg === 'string' ? entry.msg : text(entry.msg ?? '')}`;
  const body = fields.length > 0 ? `${head}  ${fields.join(' ')}` : head;
  return stack ? `${body}\n${stack.replace(/^/gm, '    ')}` : body;
}

/** A destination for pino that writes formatted lines to `out`. */
export function prettyDestination(out: Writable & { isTTY?: boolean }, colours: boolean): { write(chunk: string): boolean } {
  return {
    write: (chunk) =>
      out.write(
        `${chunk
          .split('\n')
          .filter(Boolean)
          .map((line) => formatLine(line, colours))
          .join('\n')}\n`,
      ),
  };
}
