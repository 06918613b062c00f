import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { createAuthenticator, type AuthenticatorOptions } from '../app/authenticate.js';
import type { AppDeps } from '../app/deps.js';
import { createHostedFeedRenderer } from '../app/hosted-feed.js';
import { clientErrorHandlerWith } from './client-errors.js';
import { frameworkErrorsWith, registerErrorHandling } from './errors.js';
import { maxParamLength } from './path-limits.js';
import { messageKeywords } from './validation-messages.js';
import { registerOpenApi } from './openapi.js';
import { registerAuth } from './plugins/auth.js';
import { registerDrain } from './plugins/drain.js';
import { registerHttpsOnly } from './plugins/https-only.js';
import { registerIdempotency } from './plugins/idempotency.js';
import { registerMethodNotAllowed } from './plugins/method-not-allowed.js';
import { registerMetrics } from './plugins/metrics.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { registerRateLimit, type RateLimitOptions } from './plugins/rate-limit.js';
import { securityHeaderSet } from './security-header-set.js';
import { bundleRoutes } from './routes/bundles.js';
import { discoverRoutes } from './routes/discover.js';
import { eventRoutes } from './routes/events.js';
import { opmlRoutes } from './routes/opml.js';
import { feedRoutes } from './routes/feeds.js';
import { healthRoutes, type ReadinessCheck } from './routes/health.js';
import { hostedRoutes } from './routes/hosted.js';
import { openApiRoutes } from './routes/openapi.js';
import { webhookRoutes } from './routes/webhooks.js';
import { websubRoutes } from './routes/websub.js';
import { trustFunction, type TrustProxy } from './trust-proxy.js';

export interface HttpAppOptions {
  /** TLS key and certificate; omitted in tests that use `app.inject`. */
  https?: { key: string | Buffer; cert: string | Buffer };
  /** Refuse requests that did not arrive over HTTPS. @default true */
  httpsOnly?: boolean;
  /** TLS-terminating proxies trusted for `X-Forwarded-For` and `X-Forwarded-Proto`. @default false */
  trustProxy?: TrustProxy;
  /** Largest request body, in bytes. @default 65536 */
  bodyLimit?: number;
  logger?: FastifyServerOptions['loggerInstance'];
  ready?: ReadinessCheck;
  /** Shown in the OpenAPI document. @default '0.0.0' */
  version?: string;
  /** Per-key request budget. @default { max: 600, windowMs: 60000 } */
  rateLimit?: RateLimitOptions;
  /** `Strict-Transport-Security` max-age on HTTPS responses, in seconds. @default 31536000 */
  hstsMaxAge?: number;
  /** `includeSubDomains` on `Strict-Transport-Security`. @default false */
  hstsIncludeSubDomains?: boolean;
  /** The slow secret check; tests count its calls. @default verifySecret */
  verifySecret?: AuthenticatorOptions['verify'];
}

/** Where API routes are mounted (DESIGN.md: every spec path variant works). */
const apiPrefixes = ['/v1', '/api/v1'];
const feedPaths = ['/feeds', '/feed'];
const bundlePaths = ['/bundles', '/bundled'];

/**
 * The REST surface and the hosted feeds, without listening: src/main mounts GraphQL and the dashboard
 * beside them and listens; tests call `app.inject`.
 */
export async function buildHttpApp(deps: AppDeps, options: HttpAppOptions = {}): Promise<FastifyInstance> {
  const trustProxy = options.trustProxy ?? false;
  const trust = trustFunction(trustProxy);
  const securityHeaders = securityHeaderSet({
    hstsMaxAge: options.hstsMaxAge ?? 31_536_000,
    hstsIncludeSubDomains: options.hstsIncludeSubDomains ?? false,
  });
  const app = Fastify({
    ...(options.https ? { https: options.https } : {}),
    loggerInstance: options.logger,
    trustProxy: trustProxy === false ? false : trust,
    bodyLimit: options.bodyLimit ?? 65_536,
    // Unknown body fields are rejected (400), never silently dropped: a typo should not pass.
    // `verbose` hands the error handler each failing value and schema, so messages say what was
    // expected and what arrived (validation-messages.ts); the `x-` keywords feed those messages.
    ajv: {
      customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false, verbose: true, keywords: [...messageKeywords] },
      // `format: regex` publishes that a value is a pattern; ajv would judge it by JavaScript's dialect,
      // but patterns are RE2's, and the use case (compileUserPattern) refuses with RE2's reason.
      onCreate: (ajv) => void ajv.addFormat('regex', true),
    },
    return503OnClosing: true,
    // Under routerOptions: Fastify 5 warns (FSTDEP022) when router options are given at the top level.
    routerOptions: { maxParamLength },
    // Errors met while routing, and requests Node's parser refuses, leave in our error shape and
    // with the security headers too.
    frameworkErrors: frameworkErrorsWith(securityHeaders),
    clientErrorHandler: clientErrorHandlerWith(securityHeaders),
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Bodies are JSON only (spec "Endpoints"); Fastify would otherwise also take text/plain.
  app.removeContentTypeParser('text/plain');
  registerErrorHandling(app);
  registerMethodNotAllowed(app);
  registerDrain(app);
  registerSecurityHeaders(app, securityHeaders);
  if (options.httpsOnly ?? true) registerHttpsOnly(app, trust);
  registerMetrics(app, deps.metrics);
  registerAuth(app, createAuthenticator(deps, options.verifySecret ? { verify: options.verifySecret } : {}), trust);
  await registerRateLimit(app, options.rateLimit ?? { max: 600, windowMs: 60_000 });
  registerIdempotency(app, deps);
  await registerOpenApi(app, options.version ?? '0.0.0');

  for (const prefix of apiPrefixes) {
    for (const path of feedPaths) await app.register(feedRoutes, { prefix: `${prefix}${path}`, deps });
    for (const path of bundlePaths) await app.register(bundleRoutes, { prefix: `${prefix}${path}`, deps });
    await app.register(webhookRoutes, { prefix: `${prefix}/webhooks`, deps });
    await app.register(eventRoutes, { prefix: `${prefix}/events`, deps });
    await app.register(opmlRoutes, { prefix: `${prefix}/opml`, deps });
    await app.register(discoverRoutes, { prefix: `${prefix}/discover`, deps });
  }
  await app.register(hostedRoutes, { render: createHostedFeedRenderer(deps) });
  // The WebSub hub every hosted feed advertises (`{FEEDMILL_PUBLIC_URL}/websub`).
  await app.register(websubRoutes, { deps });
  await app.register(openApiRoutes, { prefixes: apiPrefixes });
  await app.register(healthRoutes, { ready: options.ready ?? (async () => true) });
  return app;
}
