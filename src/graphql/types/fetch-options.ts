import type { SealedFetchOptions } from '../../domain/feed.js';
import { allowedHeaderNames, fetchOptionLimits as limits } from '../../domain/fetch-options.js';
import { builder } from '../builder.js';

const HeaderInput = builder.inputType('HeaderInput', {
  description: `One request header for the source: names among ${allowedHeaderNames.join(', ')} or X-…, in any letter case, each once.`,
  fields: (t) => ({
    name: t.string({ required: true, description: `The header's name, at most ${limits.headerNameChars} characters.` }),
    value: t.string({
      required: true,
      description: `Printable ASCII without leading or trailing spaces, at most ${limits.headerValueChars} characters; never shown again.`,
    }),
  }),
});

const BasicAuthInput = builder.inputType('BasicAuthInput', {
  description: 'HTTP Basic credentials (RFC 7617), sent as `Authorization`; not together with an `Authorization` header.',
  fields: (t) => ({
    username: t.string({ required: true, description: `No control characters or \`:\`; at most ${limits.usernameChars} characters.` }),
    password: t.string({ required: true, description: `No control characters; at most ${limits.passwordChars} characters.` }),
  }),
});

/** docs/fetch-options.md; handed to the use case in the spec's words (`fetchOptionsFromInput`), which checks them. */
export const FetchOptionsInput = builder.inputType('FetchOptionsInput', {
  description:
    "What the source needs beyond its address, sent on every request to the source's own origin and nowhere else. Stored encrypted; read back only as `FetchOptions`.",
  fields: (t) => ({
    userAgent: t.string({
      required: false,
      description: `The \`User-Agent\` sent instead of feedmill's; printable ASCII, at most ${limits.userAgentChars} characters.`,
    }),
    headers: t.field({
      type: [HeaderInput],
      required: false,
      description: `At most ${limits.headers} headers, ${limits.headersTotalChars} characters for all names and values together.`,
    }),
    basicAuth: t.field({ type: BasicAuthInput, required: false, description: 'HTTP Basic credentials.' }),
  }),
});

export const FetchOptions = builder.objectRef<SealedFetchOptions>('FetchOptions').implement({
  description: 'What the source is sent beyond its address (docs/fetch-options.md), without any secret.',
  fields: (t) => ({
    userAgent: t.string({
      nullable: true,
      description: "The source's own `User-Agent`; null: feedmill's.",
      resolve: (options) => options.userAgent,
    }),
    headerNames: t.stringList({
      description: 'The names of the headers sent; their values are never shown.',
      resolve: (options) => options.headerNames,
    }),
    basicAuthSet: t.boolean({
      description: 'Whether HTTP Basic credentials are sent; they are never shown.',
      resolve: (options) => options.basicAuth,
    }),
  }),
});

/** The input in the words of the spec and the domain (`user_agent`, `basic_auth`); a refusal comes back spelt in ours (errors.ts). */
export const fetchOptionsFromInput = (input: typeof FetchOptionsInput.$inferInput): Record<string, unknown> => ({
  user_agent: input.userAgent,
  headers: input.headers,
  basic_auth: input.basicAuth,
});
