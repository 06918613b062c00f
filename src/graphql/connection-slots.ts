import type { Release } from './subscription-slots.js';

/** @default 20 */
export const defaultConnectionsPerKey = 20;

/**
 * Counts the long-lived GraphQL connections (WebSockets and SSE streams) each API key holds, so one
 * key cannot pin sockets and memory without bound. Counts are in this process: in cluster mode each
 * API replica enforces the cap on the connections it holds.
 */
export class ConnectionSlots {
  readonly perKey: number;
  readonly #keys = new Map<string, number>();

  constructor(perKey: number = defaultConnectionsPerKey) {
    this.perKey = perKey;
  }

  /** A slot for one more connection of the key, or undefined when it already holds `perKey`. */
  take(keyId: string): Release | undefined {
    const held = this.#keys.get(keyId) ?? 0;
    if (held >= this.perKey) return undefined;
    this.#keys.set(keyId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#keys.get(keyId) ?? 1) - 1;
      if (left > 0) this.#keys.set(keyId, left);
      else this.#keys.delete(keyId);
    };
  }

  /** Connections the key holds in this process. */
  countOf(keyId: string): number {
    return this.#keys.get(keyId) ?? 0;
  }
}
