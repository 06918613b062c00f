import { createSourceEventStream, execute, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GraphqlContext } from './builder.js';

/** The answers already computed for one event and one document, by who asked and with what. */
type Answers = Map<string, Promise<ExecutionResult>>;

/**
 * Runs a subscription's selection once per event for every subscriber who would get the same
 * answer, instead of once per subscriber: one event reaching 2,500 subscribers of one feed cost
 * 2,500 executions, and the last subscriber heard it 1.4 s after the first (bench/README.md,
 * "events across two cluster API processes").
 *
 * Two subscribers get the same answer when the event object, the parsed document (yoga's parser
 * cache gives one object per query text), the operation, the variables and the key are the same:
 * resolvers under `Subscription` read only `deps` and `principal` from the context (builder.ts),
 * and a key's account and scopes never change. An event a listener sees filtered (through a
 * bundle's keep/block filters) is a copy of its own, so it is never shared by mistake. Answers are
 * held weakly by the event, so they go when the last subscriber has sent it.
 */
export function useSharedEventResults(): Plugin<GraphqlContext> {
  const byEvent = new WeakMap<object, WeakMap<DocumentNode, Answers>>();

  const answer = (args: ExecutionArgs, payload: unknown): Promise<ExecutionResult> => {
    const run = async (): Promise<ExecutionResult> => execute({ ...args, rootValue: payload });
    if (typeof payload !== 'object' || payload === null) return run();
    const byDocument = byEvent.get(payload) ?? new WeakMap<DocumentNode, Answers>();
    byEvent.set(payload, byDocument);
    const answers = byDocument.get(args.document) ?? new Map<string, Promise<ExecutionResult>>();
    byDocument.set(args.document, answers);
    const { principal } = args.contextValue as GraphqlContext;
    const key = JSON.stringify([principal.keyId, args.operationName ?? null, args.variableValues ?? {}]);
    let result = answers.get(key);
    if (!result) {
      result = run();
      answers.set(key, result);
    }
    return result;
  };

  return {
    onSubscribe: ({ setSubscribeFn }) => {
      setSubscribeFn(async (args: ExecutionArgs) => {
        const source = await createSourceEventStream(args);
        if (!(Symbol.asyncIterator in source)) return source;
        return eachAnswered(source[Symbol.asyncIterator](), (payload) => answer(args, payload));
      });
    },
  };
}

/**
 * The source's events as answers. Written out rather than as an async generator: a generator
 * waiting on the source would hold a client's `return()` until the next event, and the
 * subscription (its slot, its bus listener) must end when the client leaves.
 */
function eachAnswered(
  source: AsyncIterator<unknown>,
  answerOf: (payload: unknown) => Promise<ExecutionResult>,
): AsyncIterableIterator<ExecutionResult> {
  const ended = { done: true, value: undefined } as const;
  const iterator: AsyncIterableIterator<ExecutionResult> = {
    async next() {
      const step = await source.next();
      return step.done ? ended : { done: false, value: await answerOf(step.value) };
    },
    async return() {
      await source.return?.();
      return ended;
    },
    async throw(error?: unknown) {
      if (source.throw) await source.throw(error);
      throw error;
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
