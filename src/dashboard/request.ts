import type { FastifyRequest } from 'fastify';
import type { SignedIn } from '../app/sessions.js';
import type { Principal } from '../domain/api-key.js';
import type { Viewer } from './layout.js';
import { csrfTokenOf } from './session-cookie.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The dashboard's signed-in person; set by the dashboard's session hook. */
    signedIn: SignedIn | null;
  }
  interface FastifyContextConfig {
    /** A dashboard route reachable without a session (sign-in, assets). */
    dashboardPublic?: boolean;
  }
}

/** A urlencoded form as @fastify/formbody parses it: a repeated name gives a list. */
export type FormBody = Record<string, string | string[] | undefined>;

/** One value of a form field; the last one when it was sent more than once. */
export function fieldOf(body: FormBody | undefined, name: string): string {
  const value = body?.[name];
  return Array.isArray(value) ? (value.at(-1) ?? '') : (value ?? '');
}

/** Every value of a field (checkboxes). */
export function valuesOf(body: FormBody | undefined, name: string): string[] {
  const value = body?.[name];
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

/** The caller of a signed-in route, acting as the account with both scopes. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.signedIn) throw new Error('A signed-in dashboard route ran without a session; the session hook must run first');
  return request.signedIn.principal;
}

export function viewerOf(request: FastifyRequest, secretKey: Buffer): Viewer {
  const signedIn = request.signedIn;
  if (!signedIn) throw new Error('A signed-in dashboard route ran without a session; the session hook must run first');
  return { email: signedIn.session.email, accountId: signedIn.session.accountId, csrf: csrfTokenOf(secretKey, signedIn.session.id) };
}
