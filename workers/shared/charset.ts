import { isUtf8 } from 'node:buffer';
import { detect } from 'chardet';
import iconv from 'iconv-lite';

/**
 * Bytes to text for feeds and pages alike, with one table of charset labels.
 *
 * Precedence, first that applies:
 * 1. a byte-order mark (UTF-8, UTF-16 BE/LE, UTF-32 BE/LE): a fact about the bytes, and the WHATWG
 *    Encoding standard lets it override every label;
 * 2. for XML, the first character `<` (or `<?`) written in UTF-16 or UTF-32 without a BOM (XML 1.0
 *    Appendix F): no ASCII-compatible label can be right about such bytes;
 * 3. the HTTP `charset` (RFC 7303 §3.2 gives it precedence over the XML declaration; HTML §13.2.3
 *    over `<meta>`);
 * 4. the label inside the document (the XML declaration, or `<meta charset>`), read as ASCII;
 *    at 3 and 4, a label no decoder knows (`dbcs`, misspellings) counts as none;
 * 5. UTF-8, when the bytes are UTF-8;
 * 6. what a statistical detector (chardet, ICU's detector) reads the bytes as: unlabelled Big5,
 *    Shift_JIS, EUC-KR, GB18030 or KOI8-R documents, and UTF-8 damaged by a stray byte, which it
 *    names as UTF-8.
 */
export function decodeBytes(bytes: Uint8Array, contentType: string | undefined, format: 'xml' | 'html'): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sniffed = sniffBom(buffer) ?? (format === 'xml' ? sniffWideXml(buffer) : undefined);
  // iconv-lite removes the BOM it was told about.
  if (sniffed !== undefined) return windows1252Controls(iconv.decode(buffer, sniffed));
  const header = charsetFromContentType(contentType);
  // Each source only when the one before it names no encoding a decoder knows (`??` reads lazily).
  const encoding = encodingForLabel(header, false) ?? encodingForLabel(labelInDocument(buffer, format), true) ?? unlabelledEncoding(buffer);
  if (encoding === 'utf-8') {
    const text = buffer.toString('utf8');
    const unmarked = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    return hasUtf8C1Control(buffer) ? windows1252Controls(unmarked) : unmarked;
  }
  const text = iconv.decode(buffer, encoding);
  return wide.has(encoding) ? windows1252Controls(text) : text;
}

/**
 * What Windows-1252 makes of the bytes 0x80–0x9F (`’` for 0x92), where it defines them: the C1
 * control characters of the same numbers found in a Unicode document stand for these. Read from
 * iconv-lite, the decoder every other charset goes through.
 */
const windows1252 = new Map<string, string>();
for (let byte = 0x80; byte <= 0x9f; byte++) {
  const character = iconv.decode(Buffer.from([byte]), 'windows-1252');
  if (character !== '\ufffd' && character.charCodeAt(0) !== byte) windows1252.set(String.fromCharCode(byte), character);
}
const c1Control = /[\u0080-\u009f]/g;

/**
 * A C1 control character (U+0080–U+009F) in a Unicode document is Windows-1252 text converted as
 * if it were Latin-1 (`don\u0092t`): no feed or page means a control character there, and readers
 * see nothing or a box. It becomes the character Windows-1252 gives that byte (`don’t`), as HTML
 * reads `&#146;` and as feedparser reads the raw character; the five bytes Windows-1252 leaves
 * undefined stay as they are.
 */
function windows1252Controls(text: string): string {
  c1Control.lastIndex = 0;
  if (!c1Control.test(text)) return text;
  return text.replace(c1Control, (control) => windows1252.get(control) ?? control);
}

/** Whether UTF-8 bytes encode a C1 control (`C2 80`–`C2 9F`): memchr-fast, where a regex over the text is not. */
function hasUtf8C1Control(bytes: Buffer): boolean {
  for (let i = bytes.indexOf(0xc2); i !== -1 && i + 1 < bytes.length; i = bytes.indexOf(0xc2, i + 1)) {
    const next = bytes[i + 1] as number;
    if (next >= 0x80 && next <= 0x9f) return true;
  }
  return false;
}

function sniffBom(bytes: Buffer): string | undefined {
  const [b0, b1, b2, b3] = bytes;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return 'utf-8';
  if (b0 === 0x00 && b1 === 0x00 && b2 === 0xfe && b3 === 0xff) return 'utf-32be';
  // Before UTF-16 LE, whose BOM is this one's first two bytes.
  if (b0 === 0xff && b1 === 0xfe && b2 === 0x00 && b3 === 0x00) return 'utf-32le';
  if (b0 === 0xfe && b1 === 0xff) return 'utf-16be';
  if (b0 === 0xff && b1 === 0xfe) return 'utf-16le';
  return undefined;
}

/** XML 1.0 Appendix F without a BOM: the document's first `<` in a wide encoding. */
function sniffWideXml(bytes: Buffer): string | undefined {
  if (bytes.length < 4) return undefined;
  const [b0, b1, b2, b3] = bytes;
  if (b0 === 0x00 && b1 === 0x00 && b2 === 0x00 && b3 === 0x3c) return 'utf-32be';
  if (b0 === 0x3c && b1 === 0x00 && b2 === 0x00 && b3 === 0x00) return 'utf-32le';
  // `<` followed by any ASCII character (`<?xml`, `<rss`, `<feed`), one zero byte each.
  if (b0 === 0x00 && b1 === 0x3c && b2 === 0x00 && b3 !== 0x00) return 'utf-16be';
  if (b0 === 0x3c && b1 === 0x00 && b2 !== 0x00 && b3 === 0x00) return 'utf-16le';
  return undefined;
}

export function charsetFromContentType(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const match = /;\s*charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType);
  return match?.[1];
}

/** The label in the head of the document read as ASCII: the XML declaration's or `<meta>`'s lives there. */
function labelInDocument(bytes: Buffer, format: 'xml' | 'html'): string | undefined {
  // 1024 bytes: the window HTML §13.2.3.2 gives the prescan; an XML declaration is near the start too.
  const head = bytes.toString('latin1', 0, Math.min(bytes.length, 1024));
  return format === 'xml' ? labelInXmlDeclaration(head) : labelInMeta(head);
}

/** Enough text for the detector to tell the encodings apart, and a bound on its work for a large document. */
const detectorWindow = 64 * 1024;

/**
 * A document no label describes: UTF-8 when its bytes are (the check runs in native code at
 * gigabytes a second), else what the detector names, through the same label table; a document
 * it cannot place is Windows-1252, the web's default for unlabelled legacy text.
 */
function unlabelledEncoding(bytes: Buffer): string {
  if (isUtf8(bytes)) return 'utf-8';
  const detected = detect(bytes.subarray(0, detectorWindow));
  return encodingForLabel(detected ?? undefined, false) ?? 'windows-1252';
}

function labelInXmlDeclaration(head: string): string | undefined {
  // Garbage may precede the declaration.
  const start = head.indexOf('<?xml');
  if (start === -1) return undefined;
  const end = head.indexOf('?>', start);
  const declaration = head.slice(start, end === -1 ? undefined : end);
  return /encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(declaration)?.[1];
}

function labelInMeta(head: string): string | undefined {
  for (const meta of head.match(/<meta\b[^>]*>/gi) ?? []) {
    const charset = /\bcharset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)/i.exec(meta)?.[1];
    if (charset !== undefined) return charset;
  }
  return undefined;
}

/**
 * Labels the WHATWG Encoding standard maps elsewhere than iconv-lite would read them: "latin1"
 * means windows-1252 on the web, gb2312 is read as its superset gbk.
 */
const labels: Record<string, string> = {
  latin1: 'windows-1252',
  'iso-8859-1': 'windows-1252',
  'iso8859-1': 'windows-1252',
  'iso_8859-1': 'windows-1252',
  l1: 'windows-1252',
  'us-ascii': 'windows-1252',
  ascii: 'windows-1252',
  utf8: 'utf-8',
  'unicode-1-1-utf-8': 'utf-8',
  'x-sjis': 'shift_jis',
  gb2312: 'gbk',
  'ucs-4': 'utf-32be',
  'utf-32': 'utf-32be',
  // Python's codec names, which feeds written by Python tools declare and feedparser reads, where
  // iconv-lite knows the charset by another name.
  cp_is: 'cp861',
  maccentraleurope: 'maccenteuro',
  maclatin2: 'maccenteuro',
  mac_latin2: 'maccenteuro',
  uhc: 'cp949',
  ujis: 'euc-jp',
  cp65001: 'utf-8',
};

const wide = new Set(['utf-16', 'utf-16le', 'utf-16be', 'utf-32', 'utf-32le', 'utf-32be', 'ucs-2', 'ucs-4']);

/**
 * The encoding a label names; undefined for no label or one iconv-lite does not know. A label read from inside
 * the document (`inDocument`) that names UTF-16 or UTF-32 cannot be right: the document was readable
 * as ASCII to find it, and no BOM or wide `<` said otherwise (HTML §13.2.3.2 reads it as UTF-8 too).
 */
export function encodingForLabel(label: string | undefined, inDocument: boolean): string | undefined {
  if (label === undefined) return undefined;
  const lower = label.trim().toLowerCase();
  if (inDocument && wide.has(lower)) return 'utf-8';
  const mapped = labels[lower] ?? lower;
  if (mapped === 'utf-8') return mapped;
  return iconv.encodingExists(mapped) ? mapped : undefined;
}
