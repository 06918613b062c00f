/** A response kept for replay. */
export interface StoredResponse {
  statusCode: number;
  contentType: string;
  body: string;
}

export type IdempotencyRecord = { state: 'in_flight'; fingerprint: string } | ({ state: 'done'; fingerprint: string } & StoredResponse);

export interface IdempotencyStore {
  /**
   * Claims `(accountId, key)` for a request with this fingerprint, atomically: returns null when
   * the claim is ours, or the live record someone else holds. A claim lapses after `claimSeconds`
   * (a process that died mid-request must not block the key for a day).
   */
  claim(accountId: string, key: string, fingerprint: string, now: Date, claimSeconds: number): Promise<IdempotencyRecord | null>;
  /** Keeps the response for replay until `now + keepSeconds`. */
  complete(accountId: string, key: string, response: StoredResponse, now: Date, keepSeconds: number): Promise<void>;
  /** Forgets a claim whose request ended in a failure worth retrying. */
  release(accountId: string, key: string): Promise<void>;
}
