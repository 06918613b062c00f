import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

export type ContentCoding = 'br' | 'gzip' | 'identity';

const compressors = {
  br: promisify(brotliCompress),
  gzip: promisify(gzip),
};

/**
 * RFC 9110 §12.5.3: the coding of highest weight among those we make; brotli before gzip on a tie
 * (smaller for text); identity when neither is acceptable. `*` stands for any coding not named.
 */
export function codingForAcceptEncoding(header: string | undefined): ContentCoding {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (!name) continue;
    const q = Number(params.find((param) => param.startsWith('q='))?.slice(2) ?? '1');
    weights.set(name, Number.isFinite(q) ? q : 0);
  }
  const weight = (coding: string): number => weights.get(coding) ?? weights.get('*') ?? 0;
  const [br, gz] = [weight('br'), weight('gzip')];
  if (br > 0 && br >= gz) return 'br';
  return gz > 0 ? 'gzip' : 'identity';
}

/**
 * Compressed copies of documents, kept as long as the document object itself is (the hosted
 * renderer keeps one object per version), so a poll of an unchanged feed compresses nothing.
 */
export function createCompressedCopies(): (body: Buffer, coding: Exclude<ContentCoding, 'identity'>) => Promise<Buffer> {
  const copies = new WeakMap<Buffer, Partial<Record<'br' | 'gzip', Promise<Buffer>>>>();
  return (body, coding) => {
    const held = copies.get(body) ?? {};
    copies.set(body, held);
    const options = coding === 'br' ? { params: { [constants.BROTLI_PARAM_SIZE_HINT]: body.length } } : {};
    held[coding] ??= compressors[coding](body, options);
    return held[coding];
  };
}
