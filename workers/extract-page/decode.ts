import { decodeBytes } from '../shared/charset.js';

/**
 * A fetched page as text, in the order of the WHATWG HTML encoding sniffing algorithm
 * (HTML §13.2.3.2): a byte-order mark, then the HTTP charset, then a `<meta charset>` or
 * `<meta http-equiv="content-type">` in the first 1024 bytes, then UTF-8 (see decodeBytes).
 */
export function decodePage(body: Uint8Array, contentType: string | undefined): string {
  return decodeBytes(body, contentType, 'html');
}
