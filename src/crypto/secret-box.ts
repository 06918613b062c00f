import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Webhook signing secrets must be readable again (we sign with them), so they are sealed, not
 * hashed: AES-256-GCM with a random 96-bit nonce; `nonce.tag.ciphertext`, base64url.
 */
export function seal(key: Buffer, plain: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [nonce, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
}

/** Throws when the data was altered or sealed with another key. */
export function open(key: Buffer, text: string): string {
  const [nonce, tag, sealed] = text.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!nonce || !tag || !sealed) throw new Error('sealed secret is malformed');
  const decipher = createDecipheriv('aes-256-gcm', key, nonce);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8');
}
