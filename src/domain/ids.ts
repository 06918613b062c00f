/** Randomness is a parameter so domain code stays pure; src/main passes crypto.randomBytes. */
export type RandomBytes = (size: number) => Uint8Array;

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** `length` url-safe characters; 64 symbols, so each byte maps without modulo bias. */
export function randomToken(random: RandomBytes, length: number): string {
  let out = '';
  for (const byte of random(length)) out += alphabet[byte & 63];
  return out;
}

const feedIdPattern = /^[A-Za-z0-9_-]{16}$/;
const bundleIdPattern = /^_[A-Za-z0-9_-]{16}$/;
const keyIdPattern = /^fmk_[A-Za-z0-9_-]{16}$/;

/** DESIGN.md: feeds have 16 url-safe characters. */
export const newFeedId = (random: RandomBytes): string => randomToken(random, 16);
export const isFeedId = (value: string): boolean => feedIdPattern.test(value);

/** DESIGN.md: bundles are `_` + 16, so a hosted address tells a bundle from a feed. */
export const newBundleId = (random: RandomBytes): string => `_${randomToken(random, 16)}`;
export const isBundleId = (value: string): boolean => bundleIdPattern.test(value);

/** DESIGN.md: webhooks are `wh_…`. */
export const newWebhookId = (random: RandomBytes): string => `wh_${randomToken(random, 16)}`;

export const newKeyId = (random: RandomBytes): string => `fmk_${randomToken(random, 16)}`;
export const isKeyId = (value: string): boolean => keyIdPattern.test(value);
/** 32 url-safe characters: 192 bits, shown once. */
export const newKeySecret = (random: RandomBytes): string => randomToken(random, 32);

/** DESIGN.md: events are `evt_` + 24 (src/domain/feed-event.ts, feedEventId). */
export const isEventId = (value: string): boolean => value.startsWith('evt_');
