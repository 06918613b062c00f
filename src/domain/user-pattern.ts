import { RE2JS, RE2JSSyntaxException } from 're2js';
import { FeedmillError, fieldRefusal } from './errors.js';
import { lengthOf } from './field-limits.js';
import { expectedMessage } from './field-message.js';

/** A pattern a user wrote (a filter's `matches`), compiled: whether it occurs anywhere in a text. */
export interface UserPattern {
  test(text: string): boolean;
}

/**
 * The limits of a user pattern. RE2 matches in time linear in the text, times the size of the
 * compiled program; repeat counts multiply that size (`(a|b){1000}` is 3,000 instructions from 11
 * characters), so the program is bounded as well as the source: 1,000 instructions over a 10,000-
 * character field is about 0.1 s in the worst case, and patterns people write are a few dozen.
 */
export const patternLimits = { maxLength: 200, maxProgram: 1_000 } as const;

/** re2js types the compiled program loosely; this is the one part of it read here. */
interface CompiledProgram {
  numInst(): number;
}
const programSize = (compiled: RE2JS): number => (compiled.re2Input.prog as CompiledProgram).numInst();

/** RE2's reason, without the pattern it quotes when that is the whole pattern (the message shows it already). */
function reasonOf(error: RE2JSSyntaxException, source: string): string {
  const fragment = error.getPattern();
  return fragment === null || fragment === source ? error.getDescription() : `${error.getDescription()}: \`${fragment}\``;
}

// Filters are judged per item and per condition: each pattern is compiled once while it stays in use.
const compiled = new Map<string, UserPattern>();
const maxCompiled = 500;

/**
 * The one way a user's pattern becomes a matcher, for every surface (webhooks, keep/block
 * filters, previews, GraphQL): RE2's syntax and semantics, case-insensitive, in linear time by
 * construction, so no pattern can stall the process. RE2 has no backreferences or lookarounds and
 * refuses them itself. A refusal is `validation_failed` naming `path`, with RE2's reason.
 */
export function compileUserPattern(pattern: string, path: string): UserPattern {
  const known = compiled.get(pattern);
  if (known) return known;
  const length = lengthOf(pattern);
  if (length > patternLimits.maxLength) {
    const message = expectedMessage(path, `a pattern of at most ${patternLimits.maxLength} characters`, { said: `${length} characters` });
    throw fieldRefusal(path, message);
  }
  // RE2 states the case-insensitive flag as a `(?i)` prefix: its reasons may quote the pattern with it.
  const source = `(?i)${pattern}`;
  let engine: RE2JS;
  try {
    engine = RE2JS.compile(source);
  } catch (error) {
    if (!(error instanceof RE2JSSyntaxException)) throw error;
    const expectation = 'a regular expression in RE2 syntax (which has no backreferences or lookarounds)';
    throw fieldRefusal(path, expectedMessage(path, expectation, { value: pattern }, `RE2 says: ${reasonOf(error, source)}`));
  }
  const size = programSize(engine);
  if (size > patternLimits.maxProgram) {
    const expectation = `a regular expression that compiles to at most ${patternLimits.maxProgram} RE2 instructions`;
    const hint = 'repeat counts such as `{100}` multiply the size';
    throw fieldRefusal(path, expectedMessage(path, expectation, { said: `one of ${size}` }, hint));
  }
  const matcher: UserPattern = { test: (text) => engine.test(text) };
  if (compiled.size >= maxCompiled) compiled.delete(compiled.keys().next().value ?? '');
  compiled.set(pattern, matcher);
  return matcher;
}

const matchesNothing: UserPattern = { test: () => false };
const refusedStored = new Set<string>();

/**
 * A saved pattern, for judging items: one saved before patterns were RE2's that RE2 refuses
 * (JavaScript's `\u00e9`, `[^]`) matches nothing, rather than fail every read of the feed holding it.
 */
export function storedUserPattern(pattern: string): UserPattern {
  if (refusedStored.has(pattern)) return matchesNothing;
  try {
    return compileUserPattern(pattern, 'filters');
  } catch (error) {
    if (!(error instanceof FeedmillError)) throw error;
    if (refusedStored.size >= maxCompiled) refusedStored.clear();
    refusedStored.add(pattern);
    return matchesNothing;
  }
}
