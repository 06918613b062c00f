import iconv from 'iconv-lite';
import { charsetFromContentType } from '../parse-feed/decode.js';

/**
 * Turns fetched page bytes into text, in the order of the WHATWG HTML encoding sniffing algorithm
 * (HTML §13.2.3.2): a byte-order mark, then the HTTP charset, then a `<meta charset>` or
 * `<meta http-equiv="content-type">` in the first 1024 bytes, then UTF-8.
 */
export function decodePage(body: Uint8Array, contentType: string | undefined): string {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const bom = sniffBom(bytes);
  if (bom !== undefined) return iconv.decode(bytes, bom); // iconv-lite strips the BOM
  const label = charsetFromContentType(contentType) ?? charsetFromMeta(bytes);
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

/** The prescan reads ASCII-compatible bytes; 1024 is the window HTML §13.2.3.2 step 5 gives it. */
function charsetFromMeta(bytes: Buffer): string | undefined {
  const head = bytes.toString('latin1', 0, Math.min(bytes.length, 1024));
  const metas = head.match(/<meta\b[^>]*>/gi) ?? [];
  for (const meta of metas) {
    const charset = /\bcharset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)/i.exec(meta)?.[1];
    if (charset !== undefined) return charset;
  }
  return undefined;
}

/** WHATWG Encoding labels that name another encoding than iconv-lite would read them as. */
const aliases: Record<string, string> = {
  'latin1': 'windows-1252',
  'iso-8859-1': 'windows-1252',
  'iso8859-1': 'windows-1252',
  'us-ascii': 'windows-1252',
  'ascii': 'windows-1252',
  'utf8': 'utf-8',
  'x-sjis': 'shift_jis',
  'gb2312': 'gbk', // the Encoding standard reads gb2312 as gbk, a superset
  // A page that claims UTF-16 in a meta tag cannot be, since the tag was read as ASCII (HTML §13.2.3.2).
  'utf-16': 'utf-8',
  'utf-16le': 'utf-8',
  'utf-16be': 'utf-8',
};

function normaliseLabel(label: string): string {
  const lower = label.trim().toLowerCase();
  const mapped = aliases[lower] ?? lower;
  if (mapped === 'utf-8') return mapped;
  return iconv.encodingExists(mapped) ? mapped : 'utf-8';
}
