import iconv from 'iconv-lite';

/**
 * Turns fetched bytes into text.
 *
 * Precedence: a byte-order mark wins (it is a fact about the bytes, and the WHATWG Encoding
 * standard lets it override every label), then the HTTP `charset` (RFC 7303 §3.2 gives the
 * header precedence over the XML declaration), then the XML declaration, then UTF-8.
 */
export function decodeBody(body: string | Uint8Array, contentType: string | undefined): string {
  if (typeof body === 'string') return body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const sniffed = sniffBom(bytes) ?? sniffUtf16(bytes);
  if (sniffed !== undefined) return iconv.decode(bytes, sniffed);
  const label = charsetFromContentType(contentType) ?? charsetFromXmlDeclaration(bytes);
  const encoding = label === undefined ? 'utf-8' : normaliseLabel(label);
  if (encoding === 'utf-8') return bytes.toString('utf8');
  return iconv.decode(bytes, encoding);
}

function sniffBom(bytes: Buffer): string | undefined {
  const [b0, b1, b2] = bytes;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return 'utf-8';
  if (b0 === 0xfe && b1 === 0xff) return 'utf-16be';
  if (b0 === 0xff && b1 === 0xfe) return 'utf-16le';
  return undefined;
}

/** XML 1.0 Appendix F: `<?` in UTF-16 without a BOM. */
function sniffUtf16(bytes: Buffer): string | undefined {
  const [b0, b1, b2, b3] = bytes;
  if (b0 === 0x3c && b1 === 0x00 && b2 === 0x3f && b3 === 0x00) return 'utf-16le';
  if (b0 === 0x00 && b1 === 0x3c && b2 === 0x00 && b3 === 0x3f) return 'utf-16be';
  return undefined;
}

export function charsetFromContentType(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const match = /;\s*charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType);
  return match?.[1];
}

function charsetFromXmlDeclaration(bytes: Buffer): string | undefined {
  // The declaration is ASCII in every ASCII-compatible encoding; garbage may precede it.
  const head = bytes.toString('latin1', 0, Math.min(bytes.length, 1024));
  const start = head.indexOf('<?xml');
  if (start === -1) return undefined;
  const end = head.indexOf('?>', start);
  const declaration = head.slice(start, end === -1 ? undefined : end);
  return /encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(declaration)?.[1];
}

/** Labels the WHATWG Encoding standard maps elsewhere: "latin1" really means windows-1252 on the web. */
const aliases: Record<string, string> = {
  'latin1': 'windows-1252',
  'iso-8859-1': 'windows-1252',
  'iso8859-1': 'windows-1252',
  'iso_8859-1': 'windows-1252',
  'l1': 'windows-1252',
  'us-ascii': 'windows-1252',
  'ascii': 'windows-1252',
  'utf8': 'utf-8',
  'unicode-1-1-utf-8': 'utf-8',
};

function normaliseLabel(label: string): string {
  const lower = label.trim().toLowerCase();
  const mapped = aliases[lower] ?? lower;
  if (mapped === 'utf-8') return mapped;
  return iconv.encodingExists(mapped) ? mapped : 'utf-8';
}
