import { createHmac } from 'node:crypto';
import type { RandomBytes } from './ids.js';

/** Standard Webhooks: secrets are `whsec_` + base64 of the key bytes. */
export const newSigningSecret = (random: RandomBytes): string => `whsec_${Buffer.from(random(24)).toString('base64')}`;

const keyOf = (secret: string): Buffer => Buffer.from(secret.replace(/^whsec_/, ''), 'base64');

/**
 * The `webhook-signature` header: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per
 * secret that still signs, separated by spaces, so a receiver holding either the old or the new
 * secret verifies during a rotation (Standard Webhooks, "Signature scheme").
 */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`)
    .join(' ');
}
