import { fieldRefusal } from './errors.js';
import { expectedMessage } from './field-message.js';

export interface Page {
  limit: number;
  offset: number;
}

/** Spec "Limits": limit 1..100, default 10; offset ≥ 0, default 0. */
export const pageLimits = { defaultLimit: 10, maxLimit: 100, defaultOffset: 0 } as const;

export interface PageQuery {
  limit?: string | number;
  offset?: string | number;
  /** One variant of the spec names them `$limit` and `$offset`. */
  $limit?: string | number;
  $offset?: string | number;
}

function integerIn(name: string, raw: string | number, min: number, max: number): number {
  const text = String(raw).trim();
  const value = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`;
    throw fieldRefusal(name, expectedMessage(name, range, { value: raw }));
  }
  return value;
}

export function parsePage(query: PageQuery): Page {
  const limit = query.limit ?? query.$limit;
  const offset = query.offset ?? query.$offset;
  return {
    limit: limit === undefined ? pageLimits.defaultLimit : integerIn('limit', limit, 1, pageLimits.maxLimit),
    offset: offset === undefined ? pageLimits.defaultOffset : integerIn('offset', offset, 0, Number.MAX_SAFE_INTEGER),
  };
}

/** Spec "List envelope". */
export interface ListEnvelope<T> {
  total: number;
  offset: number;
  limit: number;
  data: T[];
}
