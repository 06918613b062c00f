import type { FastifySchemaValidationError } from 'fastify';
import { errorCodes, type ErrorCode } from '../domain/errors.js';
import { expectedMessage, oneOf, unknownFieldMessage, type Subject } from '../domain/field-message.js';

/**
 * ajv's issue with ajv's `verbose` on: it also carries the value, the keyword's schema and the
 * schema holding it (Fastify's type leaves them out).
 */
type Issue = FastifySchemaValidationError & { data?: unknown; schema?: unknown; parentSchema?: unknown };

type Schema = Record<string, unknown>;

/**
 * Extension keywords our schemas may carry for the message: `x-expected` completes "Expected `x` to
 * be …" (for a pattern or format ajv would only quote), `x-error-code` names the code of the
 * failure (`invalid_url`) when it is not `validation_failed`, `x-secret: true` marks a value (a
 * credential) that a message gives the length of, never the text. ajv is told to accept them.
 */
export const messageKeywords = ['x-expected', 'x-error-code', 'x-secret'] as const;

export interface ValidationFailure {
  code: ErrorCode;
  titles: string[];
}

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);
const isRecord = isSchema;
const isErrorCode = (value: unknown): value is ErrorCode => (errorCodes as readonly unknown[]).includes(value);

/** The parts of a request, in words, for a failure of the whole part rather than one field. */
const parts: Record<string, string> = {
  body: 'the request body',
  querystring: 'the query string',
  params: 'the path',
  headers: 'the headers',
};

/** `/filters/any/0/op` → `filters.any[0].op`; the empty path is the whole part. */
function subjectOf(context: string, instancePath: string): Subject {
  if (instancePath === '') return { whole: parts[context] ?? `the ${context}` };
  return instancePath
    .slice(1)
    .replace(/\/(\d+)(?=\/|$)/g, '[$1]')
    .replaceAll('/', '.');
}

const child = (subject: Subject, key: string): Subject => (typeof subject === 'string' ? `${subject}.${key}` : key);

/** A union's branches, one level of nesting flattened (a union may hold a union, as a filter's condition does). */
const alternativesOf = (branch: Schema): unknown[] | undefined => {
  const inner = branch.anyOf ?? branch.oneOf;
  return Array.isArray(inner) ? inner : undefined;
};

const propertiesOf = (branch: Schema): Schema => (isSchema(branch.properties) ? branch.properties : {});
const requiredOf = (branch: Schema): string[] =>
  Array.isArray(branch.required) ? branch.required.filter((key): key is string => typeof key === 'string') : [];

/**
 * Whether `data` has the keys of an object branch (or of one branch of a nested union). Strictly:
 * every required key and none it does not know; loosely: at least one key, all known, some
 * required ones missing — the branch the client was evidently filling in.
 */
function fits(branch: unknown, data: unknown, loosely: boolean): boolean {
  if (!isSchema(branch) || !isRecord(data)) return false;
  const alternatives = alternativesOf(branch);
  if (alternatives) return alternatives.some((inner) => fits(inner, data, loosely));
  const properties = propertiesOf(branch);
  const keys = Object.keys(data);
  if (!keys.every((key) => key in properties)) return false;
  return loosely ? keys.length > 0 : requiredOf(branch).every((key) => key in data);
}

/**
 * Of a failed `oneOf` / `anyOf`, only the branch the value was evidently meant for is reported;
 * ajv reports every branch's complaint, which reads as noise. Applied from the outermost union
 * inwards; a value meant for no branch is reported against the union as a whole.
 */
function narrow(issues: readonly Issue[]): Issue[] {
  const unions = issues.filter((issue) => issue.keyword === 'oneOf' || issue.keyword === 'anyOf');
  const outer = unions.sort((a, b) => a.schemaPath.length - b.schemaPath.length)[0];
  if (outer === undefined) return [...issues];
  const inside = (issue: Issue): boolean => issue.schemaPath.startsWith(`${outer.schemaPath}/`);
  const rest = issues.filter((issue) => issue !== outer && !inside(issue));
  const branches = isSchema(outer.parentSchema) ? outer.parentSchema[outer.keyword] : undefined;
  const list = Array.isArray(branches) ? branches : [];
  let index = list.findIndex((branch) => fits(branch, outer.data, false));
  if (index < 0) index = list.findIndex((branch) => fits(branch, outer.data, true));
  if (index < 0) return [...narrow(rest), outer];
  return [...narrow(rest), ...narrow(issues.filter((issue) => issue.schemaPath.startsWith(`${outer.schemaPath}/${index}/`)))];
}

function unknownKeys(issue: Issue): string[] {
  const branches = isSchema(issue.parentSchema) ? issue.parentSchema[issue.keyword] : undefined;
  if (!Array.isArray(branches) || !isRecord(issue.data)) return [];
  const flat = branches.flatMap((branch) => (isSchema(branch) ? (alternativesOf(branch) ?? [branch]) : []));
  const known = new Set(flat.flatMap((branch) => (isSchema(branch) ? Object.keys(propertiesOf(branch)) : [])));
  return Object.keys(issue.data).filter((key) => !known.has(key));
}

const plural = (count: number, unit: string): string => `${count} ${unit}${count === 1 ? '' : 's'}`;

/** " of 1 to 500 characters", " of at most 100 items", or nothing without bounds. */
function countRange(min: unknown, max: unknown, unit: string): string {
  const low = typeof min === 'number' && min > 0 ? min : undefined;
  const high = typeof max === 'number' ? max : undefined;
  if (low !== undefined && high !== undefined)
    return low === high ? ` of exactly ${plural(low, unit)}` : ` of ${low} to ${plural(high, unit)}`;
  if (high !== undefined) return ` of at most ${plural(high, unit)}`;
  if (low !== undefined) return ` of at least ${plural(low, unit)}`;
  return '';
}

function numberRange(schema: Schema): string {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
  if (typeof minimum === 'number' && typeof maximum === 'number') return ` from ${minimum} to ${maximum}`;
  const bounds = [
    typeof minimum === 'number' ? `at least ${minimum}` : undefined,
    typeof exclusiveMinimum === 'number' ? `greater than ${exclusiveMinimum}` : undefined,
    typeof maximum === 'number' ? `at most ${maximum}` : undefined,
    typeof exclusiveMaximum === 'number' ? `less than ${exclusiveMaximum}` : undefined,
  ].filter((bound) => bound !== undefined);
  return bounds.length === 0 ? '' : ` of ${bounds.join(' and ')}`;
}

const formats: Record<string, string> = { 'date-time': 'an ISO 8601 date and time', uri: 'an absolute URI', email: 'an email address' };

const literalOf = (schema: Schema): unknown[] | undefined =>
  'const' in schema ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : undefined;

const keyList = (keys: readonly string[]): string => oneOf(keys).replace(/ or (?=[^ ]+$)/, ' and ');

/** What a schema asks for, in words, read from the schema itself (`x-expected` when words beat the schema). */
function expectationOf(schema: Schema): string {
  if (typeof schema['x-expected'] === 'string') return schema['x-expected'];
  const literal = literalOf(schema);
  if (literal) return oneOf(literal);
  const alternatives = alternativesOf(schema)?.filter(isSchema);
  if (alternatives) {
    const literals = alternatives.map(literalOf);
    if (literals.every((values) => values !== undefined)) return oneOf(literals.flat());
    return [...new Set(alternatives.map(expectationOf))].join(' or ');
  }
  switch (schema.type) {
    case 'string': {
      const format = typeof schema.format === 'string' ? (formats[schema.format] ?? `a string in ${schema.format} format`) : undefined;
      const pattern = typeof schema.pattern === 'string' ? ` matching \`${schema.pattern}\`` : '';
      return format ?? `a string${countRange(schema.minLength, schema.maxLength, 'character')}${pattern}`;
    }
    case 'integer':
      return `an integer${numberRange(schema)}`;
    case 'number':
      return `a number${numberRange(schema)}`;
    case 'boolean':
      return '`true` or `false`';
    case 'null':
      return '`null`';
    case 'array': {
      const item = isSchema(schema.items) ? expectationOf(schema.items) : '';
      // An item's own rule is said when it fits in a line; a long one is said when an item fails.
      const each = item !== '' && item.length <= 80 ? `, each ${item}` : '';
      return `an array${countRange(schema.minItems, schema.maxItems, 'item')}${schema.uniqueItems === true ? ' without repeats' : ''}${each}`;
    }
    case 'object': {
      const required = requiredOf(schema);
      const known = Object.keys(propertiesOf(schema));
      if (required.length > 0) return `an object with ${keyList(required)}`;
      return known.length > 0 ? `an object with any of ${keyList(known)}` : 'an object';
    }
    default:
      return 'the shape the OpenAPI document gives';
  }
}

/** What arrived, in words, when the value alone would not show what is wrong with it. */
function arrivalOf(issue: Issue): { value: unknown } | { said: string } {
  const { data } = issue;
  if (isSchema(issue.parentSchema) && issue.parentSchema['x-secret'] === true && typeof data === 'string')
    return { said: plural([...data].length, 'character') };
  if ((issue.keyword === 'minLength' || issue.keyword === 'maxLength') && typeof data === 'string')
    return { said: plural([...data].length, 'character') };
  if ((issue.keyword === 'minItems' || issue.keyword === 'maxItems') && Array.isArray(data)) return { said: plural(data.length, 'item') };
  if (issue.keyword === 'uniqueItems') return { said: 'a repeated item' };
  return { value: data };
}

function titleOf(issue: Issue, subject: Subject): string {
  const schema = isSchema(issue.parentSchema) ? issue.parentSchema : {};
  switch (issue.keyword) {
    case 'oneOf':
    case 'anyOf': {
      const unknown = unknownKeys(issue);
      if (unknown.length > 0) return unknownFieldMessage(subject, unknown, expectationOf(schema));
      return expectedMessage(subject, expectationOf(schema), { value: issue.data });
    }
    case 'not': {
      const excluded = isSchema(issue.schema) ? issue.schema : {};
      const expectation = typeof excluded['x-expected'] === 'string' ? excluded['x-expected'] : 'another shape';
      return expectedMessage(subject, expectation, { said: `an object with ${keyList(requiredOf(excluded))}` });
    }
    case 'required': {
      const missing = String(issue.params.missingProperty);
      const property = propertiesOf(schema)[missing];
      return expectedMessage(child(subject, missing), isSchema(property) ? expectationOf(property) : 'present', { said: 'nothing' });
    }
    case 'additionalProperties': {
      const known = Object.keys(propertiesOf(schema));
      return unknownFieldMessage(subject, [String(issue.params.additionalProperty)], known.length > 0 ? `only ${keyList(known)}` : 'none');
    }
    default:
      return expectedMessage(subject, expectationOf(schema), arrivalOf(issue));
  }
}

/**
 * ajv's issues as our error titles, one per field, each saying what was expected and what
 * arrived, in the words every use case uses too (domain/field-message.ts).
 */
export function describeValidation(issues: readonly FastifySchemaValidationError[], context: string): ValidationFailure {
  const reported = narrow(issues);
  const seen = new Set<string>();
  const titles: string[] = [];
  for (const issue of reported) {
    const subject = subjectOf(context, issue.instancePath);
    const title = titleOf(issue, subject);
    const field = typeof subject === 'string' ? subject : subject.whole;
    if (!seen.has(field)) titles.push(title);
    seen.add(field);
  }
  const coded = reported.map((issue) => (isSchema(issue.parentSchema) ? issue.parentSchema['x-error-code'] : undefined)).find(isErrorCode);
  return { code: coded ?? 'validation_failed', titles };
}
