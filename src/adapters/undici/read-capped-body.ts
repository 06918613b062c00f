import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import { FeedmillError } from '../../domain/errors.js';

/** The content codings feedmill asks for in `Accept-Encoding` and can undo. */
export const acceptedEncodings = 'gzip, deflate, br';

/**
 * Reads a response body, undoing its `Content-Encoding`, and stops with `body_too_large` as soon as
 * the **decoded** bytes pass `maxBytes`. The cap counts decoded bytes so that a small gzip bomb cannot
 * expand into gigabytes: zlib inflates in 16 KiB pieces and the loop below stops pulling at the cap.
 */
export async function readCappedBody(body: Readable, contentEncoding: string | undefined, maxBytes: number): Promise<Uint8Array> {
  const coding = contentCoding(contentEncoding);
  let firstByte: number | undefined;
  if (coding !== 'identity') {
    firstByte = await peekFirstByte(body);
    // An empty body with a Content-Encoding is empty; zlib would call it truncated.
    if (firstByte === undefined) return new Uint8Array(0);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  let overflow: FeedmillError | undefined;
  const collect = async (decoded: AsyncIterable<Buffer>): Promise<void> => {
    for await (const chunk of decoded) {
      total += chunk.length;
      if (total > maxBytes) throw (overflow = bodyTooLarge(maxBytes));
      chunks.push(chunk);
    }
  };
  try {
    if (coding === 'identity') await pipeline(body, collect);
    else await pipeline(body, createDecoder(coding, firstByte), collect);
  } catch (error) {
    // Node 20's pipeline reports an AbortError, not ours, when a function sink after a zlib stream throws.
    throw overflow ?? error;
  }
  return Buffer.concat(chunks, total);
}

/** The error for a body over the cap, also used when `Content-Length` already says so. */
export function bodyTooLarge(maxBytes: number, announced?: number): FeedmillError {
  const arrived = announced === undefined ? 'a longer one' : `Content-Length ${announced}`;
  return new FeedmillError(
    'body_too_large',
    `Expected a body of at most ${maxBytes} bytes (after decompression), got ${arrived}; ` + 'point the feed at a smaller document',
    { maxBytes },
  );
}

type Coding = 'identity' | 'gzip' | 'deflate' | 'br';

function contentCoding(header: string | undefined): Coding {
  const codings = (header ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0) return 'identity';
  const [only] = codings;
  if (codings.length === 1 && only === 'x-gzip') return 'gzip'; // RFC 9110 §8.4.1.3
  if (codings.length === 1 && (only === 'gzip' || only === 'deflate' || only === 'br')) return only;
  throw new FeedmillError(
    'source_unreachable',
    `Expected the source to answer with Content-Encoding ${acceptedEncodings} or none, got ` +
      `\`${header ?? ''}\`, which feedmill cannot decode`,
  );
}

function createDecoder(coding: Exclude<Coding, 'identity'>, firstByte: number | undefined): Transform {
  if (coding === 'gzip') return createGunzip();
  if (coding === 'br') return createBrotliDecompress();
  // RFC 9110 §8.4.1.2 says "deflate" is zlib-wrapped, but some servers send raw deflate. A zlib
  // header's low nibble is 8 (the deflate method); look at it as browsers do.
  return firstByte !== undefined && (firstByte & 0x0f) !== 0x08 ? createInflateRaw() : createInflate();
}

/** Reads the first byte and puts it back; `undefined` for an empty body. */
function peekFirstByte(stream: Readable): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const settle = (outcome: () => void): void => {
      stream.off('readable', onReadable).off('end', onEnd).off('error', onError);
      outcome();
    };
    const onReadable = (): void => {
      const chunk = stream.read() as Buffer | null;
      if (chunk !== null) settle(() => (stream.unshift(chunk), resolve(chunk[0])));
    };
    const onEnd = (): void => settle(() => resolve(undefined));
    const onError = (error: Error): void => settle(() => reject(error));
    stream.on('readable', onReadable).on('end', onEnd).on('error', onError);
  });
}
