/** What the receiver answered. */
export interface WebhookResponse {
  statusCode: number;
  latencyMs: number;
  /** The start of the body, at most 4 KiB. */
  excerpt: string;
  retryAfter?: string;
}

/**
 * POSTs a webhook body (and a WebSub distribution). Redirects are not followed; the same address rules as source fetching
 * apply at send time. Throws FeedmillError (`address_not_allowed`, `upstream_timeout`,
 * `source_unreachable`, `invalid_url`) when no answer came.
 */
export interface WebhookSender {
  /**
   * Applies the address rule to a target when it is set (webhook create and update): the scheme, an
   * IP literal, and the addresses its name resolves to now. Throws FeedmillError `invalid_url` or
   * `address_not_allowed`; a name that does not resolve yet passes (each send checks again).
   */
  checkTarget(url: string): Promise<void>;
  send(url: string, headers: Record<string, string>, body: string | Buffer): Promise<WebhookResponse>;
  /**
   * GETs a URL under the same rules as `send`: a WebSub hub's verification of intent, whose answer
   * must echo the challenge in the first 4 KiB (`excerpt`). `timeoutMs` shortens (never lengthens)
   * the sender's own timeout.
   */
  get(url: string, options?: { timeoutMs?: number }): Promise<WebhookResponse>;
  close(): Promise<void>;
}
