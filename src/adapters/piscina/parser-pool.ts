import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { FeedmillError, errorCodes, type ErrorCode } from '../../domain/errors.js';
import type { ExtractedArticle } from '../../domain/article.js';
import type { ParsedFeed, ParsedPage } from '../../domain/item.js';
import type { FullTextRules } from '../../domain/full-text-rules.js';
import type { FeedParser, ParseMeta } from '../../ports/feed-parser.js';

export interface ParserPoolOptions {
  /** The compiled task modules (`dist/workers/parse-feed-task.js`, `extract-page-task.js`, `extract-article-task.js`). */
  tasks: { feed: string; page: string; article: string };
  /**
   * Worker threads.
   * @default the number of CPUs, at least 1
   */
  maxThreads?: number;
  /**
   * Time one parse may take; past it the thread is terminated and only that feed fails.
   * @default 10000
   */
  timeoutMs?: number;
  /**
   * How long a thread may sit idle before it ends. Threads start on the first parse and end when
   * idle, so a process with nothing to parse holds none (each costs ~17 MB resident).
   * @default 30000
   */
  idleTimeoutMs?: number;
  /** Told when a thread dies outside a task (e.g. the task module fails to load). */
  onError?: (error: unknown) => void;
}

type TaskResult<T> = ({ ok: true } & T) | { ok: false; code: ErrorCode; message: string };

const isErrorCode = (code: string): code is ErrorCode => (errorCodes as readonly string[]).includes(code);

/** Parsing and extraction off the event loop, so the loop that holds sockets and job locks stays free. */
export function createParserPool(options: ParserPoolOptions): FeedParser & {
  readonly utilization: number;
  /** Threads running now (started on demand, ended when idle). */ readonly threads: number;
} {
  const pool = new Piscina({
    filename: options.tasks.feed,
    // Always set: piscina's own default comes from spreading the options, so an undefined here
    // would leave it with no limit it can compare with, and with minThreads 0 it would start no
    // thread at all and every parse would wait for its timeout.
    maxThreads: options.maxThreads ?? Math.max(1, availableParallelism()),
    // piscina keeps half the CPUs' threads alive by default, parse or not: none until there is work.
    minThreads: 0,
    idleTimeout: options.idleTimeoutMs ?? 30_000,
  });
  // Without a listener, an 'error' event from a dying thread would take the whole process down.
  pool.on('error', (error: unknown) => options.onError?.(error));
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function run<T>(filename: string, body: Uint8Array, meta: ParseMeta & { rules?: FullTextRules }, what: string): Promise<T> {
    let result: TaskResult<T>;
    // A timer cleared when the task ends, not AbortSignal.timeout: that one's timer stays armed
    // for the whole budget after the parse is done, and with hundreds of parses a second the
    // armed timers cost 5-7% of a small feed's parse (bench/README.md, "The pool's hop").
    const budget = new AbortController();
    const timer = setTimeout(() => budget.abort(new DOMException('parse budget spent', 'TimeoutError')), timeoutMs);
    try {
      // piscina terminates the thread running an aborted task, so a pathological document
      // cannot keep a core busy after its budget.
      const task = {
        body,
        url: meta.url,
        contentType: meta.contentType,
        contentLocation: meta.contentLocation,
        extractor: meta.extractor,
        selectors: meta.selectors,
        rules: meta.rules,
      };
      result = (await pool.run(task, { filename, signal: budget.signal })) as TaskResult<T>;
    } catch (error) {
      if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) {
        throw new FeedmillError(
          'parse_timeout',
          `${what} ${meta.url} took longer than ${timeoutMs} ms and was stopped; the document is too large or malformed`,
        );
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
    if (result.ok) return result;
    throw new FeedmillError(isErrorCode(result.code) ? result.code : 'not_a_feed', result.message);
  }

  return {
    get utilization() {
      return pool.utilization;
    },
    get threads() {
      return pool.threads.length;
    },
    async parse(body, meta): Promise<ParsedFeed> {
      return (await run<{ feed: ParsedFeed }>(options.tasks.feed, body, meta, 'Parsing')).feed;
    },
    async extractPage(body, meta): Promise<ParsedPage> {
      return (await run<{ page: ParsedPage }>(options.tasks.page, body, meta, 'Reading the page')).page;
    },
    async extractArticle(body, meta): Promise<ExtractedArticle | null> {
      return (await run<{ article: ExtractedArticle | null }>(options.tasks.article, body, meta, 'Reading the article')).article;
    },
    async close() {
      await pool.destroy();
    },
  };
}
