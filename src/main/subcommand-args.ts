import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ExitError } from './exit-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

const helpOption = { help: { type: 'boolean', short: 'h', default: false } } as const;

type Parsed<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O & typeof helpOption; allowPositionals: true }>>;

export type Subcommand<O extends Options> = { action: string; values: Parsed<O>['values']; positionals: string[] };

/**
 * `feedmill <command> <action> [options]`, the one way the CLI's subcommands read their arguments:
 * checked completely before anything is opened, so a typo or `--help` touches no store and asks
 * for no password. Null asks the caller to print its usage (no action, `help`, `--help`, `-h`);
 * anything refused exits 2 with the usage.
 */
export function parseSubcommand<O extends Options>(args: readonly string[], options: O, usage: string): Subcommand<O> | null {
  const [action, ...rest] = args;
  if (action === undefined || action === 'help' || action === '--help' || action === '-h') return null;
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: { ...options, ...helpOption }, allowPositionals: true });
  } catch (error) {
    throw new ExitError(`${(error as Error).message}; ${usage}`, 2);
  }
  if ('help' in parsed.values && parsed.values.help === true) return null;
  return { action, values: parsed.values, positionals: parsed.positionals };
}
