import type { FastifyReply } from 'fastify';
import type { AppDeps } from '../app/deps.js';
import type { Assets } from './assets.js';
import type { Html } from './html.js';

/** What every dashboard route file is registered with. */
export interface DashboardOptions {
  deps: AppDeps;
  assets: Assets;
}

/** Every page is about one person's account: never kept by a cache, never shown from history after sign-out. */
export function sendPage(reply: FastifyReply, page: Html, status = 200): FastifyReply {
  return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page.text);
}
