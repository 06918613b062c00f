import type { GraphqlServer } from '../../src/graphql/yoga.js';

export interface GraphqlError {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; statusCode?: number };
}

export interface GraphqlResponse<T> {
  /** The HTTP status yoga answered with. */
  status: number;
  data?: T | null;
  errors?: GraphqlError[];
}

/** Sends one operation to the yoga instance in-process (STYLE.md: tests call `yoga.fetch`). */
export async function graphql<T = Record<string, unknown>>(
  yoga: GraphqlServer,
  authorization: string | undefined,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<GraphqlResponse<T>> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/graphql-response+json, application/json',
  };
  if (authorization !== undefined) headers.authorization = authorization;
  const response = await yoga.fetch('http://localhost/graphql', { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  const body = (await response.json()) as { data?: T | null; errors?: GraphqlError[] };
  return { status: response.status, ...body };
}

/** The codes of a response's errors, in order: what a client branches on. */
export const codesOf = (response: GraphqlResponse<unknown>): (string | undefined)[] =>
  (response.errors ?? []).map((error) => error.extensions?.code);

/** A selection that reads a whole filter (`ItemFilter`): a group, a group in a group, and the conditions below. */
const condition = 'field op value';
const subfilter = `${condition} all { ${condition} } any { ${condition} }`;
export const filterSelection = `${condition} all { ${subfilter} } any { ${subfilter} }`;
