import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { getOperationAST, GraphQLError, NoSchemaIntrospectionCustomRule, OperationTypeNode, type ValidationContext } from 'graphql';
import { createYoga, isAsyncIterable, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { createAuthenticator, requireScope, type Authenticator } from '../app/authenticate.js';
import type { AppDeps } from '../app/deps.js';
import type { Principal } from '../domain/api-key.js';
import { isFeedmillError } from '../domain/errors.js';
import type { GraphqlContext } from './builder.js';
import { asValidationError, maskError, toGraphqlError } from './errors.js';
import { schema } from './schema.js';
import { useSharedEventResults } from './shared-event-results.js';
import { SubscriptionSlots, type SubscriptionCaps } from './subscription-slots.js';

export interface GraphqlServerOptions {
  /** Where yoga answers. @default '/graphql' */
  endpoint?: string;
  /**
   * Serve GraphiQL on GET and allow introspection. Off by default, as in production: the schema
   * is published as schema/schema.graphql, and introspection is the usual way to a costly query.
   * @default false
   */
  explorer?: boolean;
  /** Deepest selection allowed, counted in fields. @default 8 */
  maxDepth?: number;
  /** Largest query cost (graphql-armor: 1 per scalar, 2 per object, ×1.5 per level). @default 1000 */
  maxCost?: number;
  /** Aborting it ends every live subscription (graceful shutdown). */
  closing?: AbortSignal;
  /** The HTTP app's authenticator, so its failure throttle covers GraphQL too. @default createAuthenticator(deps) */
  authenticate?: Authenticator;
  /** Live subscriptions per connection and per account. @default { perConnection: 20, perAccount: 100 } */
  subscriptionCaps?: SubscriptionCaps;
}

/**
 * What a transport passes in: yoga's Fetch `request`, or (WebSockets) the connection's
 * Authorization and the socket, which its subscriptions share (HTTP: each request is its own).
 */
export interface GraphqlServerContext {
  authorization?: string;
  /** The caller's address, for the failure throttle. */
  client?: string;
  /** Credentials the HTTP layer already checked for this request (it names the caller for the rate limit). */
  authentication?: Promise<Principal>;
  connection?: object;
}

export type GraphqlServer = YogaServerInstance<GraphqlServerContext, GraphqlContext>;

/** armor reports "Syntax Error: …" for a limit; it is a validation failure with our code. */
const limitRejected = (context: ValidationContext | null, error: GraphQLError): void => {
  context?.reportError(
    asValidationError(new GraphQLError(`${error.message.replace(/^Syntax Error: /, '')} Ask for fewer or less nested fields.`)),
  );
};

/** Queries and subscriptions need `read`, mutations `write`; checked once per operation, on every transport. */
function useScopes(): Plugin<GraphqlContext> {
  const check = ({
    args,
    setResultAndStopExecution,
  }: {
    args: { document: Parameters<typeof getOperationAST>[0]; operationName?: string | null; contextValue: GraphqlContext };
    setResultAndStopExecution: (result: { errors: GraphQLError[] }) => void;
  }): void => {
    const operation = getOperationAST(args.document, args.operationName)?.operation;
    try {
      requireScope(args.contextValue.principal, operation === OperationTypeNode.MUTATION ? 'write' : 'read');
    } catch (error) {
      if (!isFeedmillError(error)) throw error;
      // A result, not a throw: graphql-ws closes the socket on a thrown error.
      setResultAndStopExecution({ errors: [toGraphqlError(error)] });
    }
  };
  return { onExecute: check, onSubscribe: check };
}

/** Turns graphql's own validation errors (unknown field, wrong argument) into `validation_failed`. */
function useValidationCodes(): Plugin {
  return {
    onValidate:
      () =>
      ({ valid, result, setResult }) => {
        if (valid) return;
        // envelop types validation results as any[]; graphql's validate returns GraphQLErrors.
        const errors = result as readonly GraphQLError[];
        setResult(errors.map((error) => (error.extensions.code === 'validation_failed' ? error : asValidationError(error))));
      },
  };
}

/**
 * A subscription asked for without `Accept: text/event-stream` is answered 406 by yoga, which
 * drops the stream it already opened without ending it: end it here, or its subscription slot
 * (subscription-slots.ts) would stay taken for good. Runs after yoga's own result processors.
 */
function useEndUnsentStreams(): Plugin {
  return {
    onResultProcess: ({ result, resultProcessor }) => {
      if (!resultProcessor && isAsyncIterable(result)) void result[Symbol.asyncIterator]().return?.();
    },
  };
}

/**
 * The GraphQL gateway: the same use cases as REST, behind the same `Authorization` header. Depth
 * and cost limits are validation rules, so they hold for HTTP, SSE and WebSockets alike (the WS
 * server runs this yoga's envelop pipeline).
 */
export function createGraphqlServer(deps: AppDeps, options: GraphqlServerOptions = {}): GraphqlServer {
  const authenticate = options.authenticate ?? createAuthenticator(deps);
  const closing = options.closing ?? new AbortController().signal;
  const explorer = options.explorer ?? false;
  const subscriptionSlots = new SubscriptionSlots(options.subscriptionCaps);
  return createYoga<GraphqlServerContext, GraphqlContext>({
    schema,
    graphqlEndpoint: options.endpoint ?? '/graphql',
    graphiql: explorer,
    landingPage: false,
    // Errors go through our one table; unexpected ones leave without their details.
    maskedErrors: { maskError },
    logging: false,
    context: async (initial) => {
      const authorization = initial.authorization ?? initial.request.headers.get('authorization') ?? undefined;
      try {
        const connection = initial.connection ?? initial.request;
        return {
          deps,
          principal: await (initial.authentication ?? authenticate(authorization, initial.client)),
          closing,
          subscriptionSlots,
          connection,
        };
      } catch (error) {
        throw isFeedmillError(error) ? toGraphqlError(error) : error;
      }
    },
    plugins: [
      maxDepthPlugin({ n: options.maxDepth ?? 8, propagateOnRejection: false, onReject: [limitRejected] }),
      costLimitPlugin({ maxCost: options.maxCost ?? 1000, propagateOnRejection: false, onReject: [limitRejected] }),
      ...(explorer ? [] : [{ onValidate: ({ addValidationRule }) => addValidationRule(NoSchemaIntrospectionCustomRule) } satisfies Plugin]),
      useValidationCodes(),
      useScopes(),
      useEndUnsentStreams(),
      useSharedEventResults(),
    ],
  });
}
