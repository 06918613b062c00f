import { decodeBytes } from '../shared/charset.js';

/** A fetched feed as text: see decodeBytes for the precedence between BOM, header and declaration. */
export function decodeBody(body: string | Uint8Array, contentType: string | undefined): string {
  if (typeof body === 'string') return body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  return decodeBytes(body, contentType, 'xml');
}
