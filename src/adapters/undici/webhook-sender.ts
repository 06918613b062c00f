import { Agent } from 'undici';
import { parseWebUrl } from '../../domain/source-url.js';
import type { WebhookResponse, WebhookSender } from '../../ports/webhook-sender.js';
import { classifyFailure } from './classify-failure.js';
import { resolveFetcherOptions, type UndiciFetcherOptions } from './fetcher-options.js';
import { createGuardedConnector } from './guarded-connector.js';
import { headerValue } from './response-headers.js';
import { createTargetCheck } from './target-check.js';

const excerptBytes = 4096;

/**
 * Webhook POSTs (and WebSub verification GETs) through the same guarded connector as source fetches: the receiver's address is
 * checked after DNS at send time. Redirects are not followed (a 3xx is a failed delivery), and
 * only the first 4 KiB of the answer are read.
 */
export function createUndiciWebhookSender(options: Omit<UndiciFetcherOptions, 'maxRedirects' | 'maxBodyBytes'> = {}): WebhookSender {
  const settings = resolveFetcherOptions(options);
  const agent = new Agent({
    connect: createGuardedConnector({
      lookup: settings.lookup,
      isAllowed: settings.isAddressAllowed,
      connectTimeoutMs: settings.timeoutMs,
    }),
    headersTimeout: settings.timeoutMs,
    bodyTimeout: settings.timeoutMs,
  });
  const call = async (
    method: 'GET' | 'POST',
    target: string,
    headers: Record<string, string>,
    body?: string | Buffer,
    timeoutMs = settings.timeoutMs,
  ): Promise<WebhookResponse> => {
    const url = parseWebUrl(target, { whole: 'the target' });
    const started = performance.now();
    const deadline = AbortSignal.timeout(timeoutMs);
    try {
      const response = await agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method,
        headers: { 'user-agent': settings.userAgent, ...headers },
        ...(body === undefined ? {} : { body }),
        signal: deadline,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        const buffer = chunk as Buffer;
        chunks.push(buffer);
        size += buffer.length;
        if (size >= excerptBytes) break;
      }
      response.body.destroy();
      return {
        statusCode: response.statusCode,
        latencyMs: Math.round(performance.now() - started),
        excerpt: Buffer.concat(chunks).subarray(0, excerptBytes).toString('utf8'),
        retryAfter: headerValue(response.headers, 'retry-after'),
      };
    } catch (error) {
      throw classifyFailure(error, { url: url.href, timedOut: deadline.aborted, timeoutMs });
    }
  };
  return {
    checkTarget: createTargetCheck(settings),
    send: (target, headers, body) => call('POST', target, headers, body),
    get: (target, options = {}) =>
      call('GET', target, {}, undefined, Math.min(options.timeoutMs ?? settings.timeoutMs, settings.timeoutMs)),
    close: () => agent.close(),
  };
}
