import type { FastifySchemaValidationError } from 'fastify';
import { errorCodes, type ErrorCode } from '../domain/errors.js';

/**
 * ajv's issue with ajv's `verbose` on: it also carries the value, the keyword's schema and the
 * schema holding it (Fastify's type leaves them out).
 */
type Issue = FastifySchemaValidationError & { data?: unknown; schema?: unknown; parentSchema?: unknown };

type Schema = Record<string, unknown>;

/**
 * Extension keywords our schemas may carry for the message: `x-expected` completes "Expected `x` to
 * be …" (for a pattern or format ajv would only quote), `x-error-code` names the code of the
 * failure (`invalid_url`) when it is not `validation_failed`. ajv is told to accept them.
 */
export const messageKeywords = ['x-expected', 'x-error-code'] as const;

export interface ValidationFailure {
  code: ErrorCode;
  titles: string[];
}

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);
const isRecord = isSchema;
const text = (value: unknown): string => {
  const shown = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return shown.length > 120 ? `${shown.slice(0, 120)}…` : shown;
};
const isErrorCode = (value: unknown): value is ErrorCode => (errorCodes as readonly unknown[]).includes(value);

/** `/filters/any/0/op` → `filters.any[0].op`. */
const pathOf = (context: string, instancePath: string): string =>
  `${context}${instancePath.replace(/\/(\d+)(?=\/|$)/g, '[$1]').replaceAll('/', '.')}`;

/** A union's branches, one level of nesting flattened (a union may hold a union, as a filter's condition does). */
const alternativesOf = (branch: Schema): unknown[] | undefined => {
  const inner = branch.anyOf ?? branch.oneOf;
  return Array.isArray(inner) ? inner : undefined;
};

/** Whether `data` has the keys of an object branch (or of one branch of a nested union): every required one, and none it does not know. */
function fits(branch: unknown, data: unknown): boolean {
  if (!isSchema(branch) || !isRecord(data)) return false;
  const alternatives = alternativesOf(branch);
  if (alternatives) return alternatives.some((inner) => fits(inner, data));
  const properties = isSchema(branch.properties) ? branch.properties : {};
  const required = Array.isArray(branch.required) ? (branch.required as string[]) : [];
  return required.every((key) => key in data) && Object.keys(data).every((key) => key in properties);
}

/**
 * Of a failed `oneOf` / `anyOf`, only the branch the value was evidently meant for is reported (the one
 * whose keys it has); ajv reports every branch's complaint, which reads as noise. Applied from the
 * outermost union inwards.
 */
function narrow(issues: readonly Issue[]): Issue[] {
  const unions = issues.filter((issue) => issue.keyword === 'oneOf' || issue.keyword === 'anyOf');
  const outer = unions.sort((a, b) => a.schemaPath.length - b.schemaPath.length)[0];
  if (outer === undefined) return [...issues];
  const inside = (issue: Issue): boolean => issue.schemaPath.startsWith(`${outer.schemaPath}/`);
  const rest = issues.filter((issue) => issue !== outer && !inside(issue));
  const branches = isSchema(outer.parentSchema) ? outer.parentSchema[outer.keyword] : undefined;
  const index = Array.isArray(branches) ? branches.findIndex((branch) => fits(branch, outer.data)) : -1;
  if (index < 0) return [...narrow(rest), outer];
  return [...narrow(rest), ...narrow(issues.filter((issue) => issue.schemaPath.startsWith(`${outer.schemaPath}/${index}/`)))];
}

function unknownKeys(issue: Issue): string[] {
  const branches = isSchema(issue.parentSchema) ? issue.parentSchema[issue.keyword] : undefined;
  if (!Array.isArray(branches) || !isRecord(issue.data)) return [];
  const flat = branches.flatMap((branch) => (isSchema(branch) ? (alternativesOf(branch) ?? [branch]) : []));
  const known = new Set(flat.flatMap((branch) => (isSchema(branch) && isSchema(branch.properties) ? Object.keys(branch.properties) : [])));
  return Object.keys(issue.data).filter((key) => !known.has(key));
}

function titleOf(issue: Issue, where: string): string {
  const schema = isSchema(issue.parentSchema) ? issue.parentSchema : {};
  const description = typeof schema.description === 'string' ? schema.description : undefined;
  const expected = typeof schema['x-expected'] === 'string' ? schema['x-expected'] : undefined;
  switch (issue.keyword) {
    case 'oneOf':
    case 'anyOf': {
      const unknown = unknownKeys(issue);
      const shapes = description ?? 'one of the shapes the OpenAPI document lists';
      if (unknown.length > 0) return `\`${where}\` has unknown fields ${unknown.map((key) => `\`${key}\``).join(', ')}; expected ${shapes}`;
      return `\`${where}\`: expected ${shapes}`;
    }
    case 'not':
      return `\`${where}\`: expected ${(isSchema(issue.schema) && typeof issue.schema.description === 'string' ? issue.schema.description : undefined) ?? 'another shape'}`;
    case 'enum': {
      const allowed = Array.isArray(issue.params.allowedValues) ? issue.params.allowedValues.map((value) => `\`${String(value)}\``).join(', ') : '';
      return `Expected \`${where}\` to be one of ${allowed}, got \`${text(issue.data)}\``;
    }
    case 'pattern':
    case 'format':
      if (expected !== undefined) return `Expected \`${where}\` to be ${expected}, got \`${text(issue.data)}\``;
      break;
    case 'additionalProperties':
      return `\`${where}\` ${issue.message ?? 'is invalid'} \`${String(issue.params.additionalProperty)}\``;
    default:
      break;
  }
  return `\`${where}\` ${issue.message ?? 'is invalid'}`;
}

/** ajv's issues as our error titles, each saying what was expected and, where it helps, what arrived. */
export function describeValidation(issues: readonly FastifySchemaValidationError[], context: string): ValidationFailure {
  const reported = narrow(issues);
  const titles = reported.map((issue) => titleOf(issue, pathOf(context, issue.instancePath)));
  const coded = reported.map((issue) => (isSchema(issue.parentSchema) ? issue.parentSchema['x-error-code'] : undefined)).find(isErrorCode);
  return { code: coded ?? 'validation_failed', titles };
}
