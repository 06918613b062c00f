/** What the receiver answered. */
export interface WebhookResponse {
  statusCode: number;
  latencyMs: number;
  /** The start of the body, at most 4 KiB. */
  excerpt: string;
  retryAfter?: string;
}

/**
 * POSTs a webhook body. Redirects are not followed; the same address rules as source fetching
 * apply at send time. Throws FeedmillError (`address_not_allowed`, `upstream_timeout`,
 * `source_unreachable`, `invalid_url`) when no answer came.
 */
export interface WebhookSender {
  send(url: string, headers: Record<string, string>, body: string): Promise<WebhookResponse>;
  close(): Promise<void>;
}
