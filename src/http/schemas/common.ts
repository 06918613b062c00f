import { Type } from 'typebox';

/** Spec "Error body". */
export const ErrorBody = Type.Object(
  {
    message: Type.String(),
    statusCode: Type.Integer(),
    errors: Type.Array(Type.Object({ title: Type.String(), code: Type.String() })),
  },
  { $id: 'ErrorBody', description: 'Every failure, whatever its status.' },
);

/** The error responses every authenticated route can give. */
export const errorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  413: ErrorBody,
  415: ErrorBody,
  429: ErrorBody,
  500: ErrorBody,
} as const;

/** Path ids are plain strings here: an id of the wrong shape is simply not found (404), never a 400 or 500. */
export const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** Spec "Deletion result". */
export const DeletionResult = Type.Object({ id: Type.String(), deleted: Type.Boolean() });

export const PageQuery = Type.Object(
  {
    limit: Type.Optional(Type.String({ maxLength: 20, description: 'Integer 1 to 100. @default 10' })),
    offset: Type.Optional(Type.String({ maxLength: 20, description: 'Integer ≥ 0. @default 0' })),
    $limit: Type.Optional(Type.String({ maxLength: 20, description: 'Alias of `limit`.' })),
    $offset: Type.Optional(Type.String({ maxLength: 20, description: 'Alias of `offset`.' })),
  },
  { additionalProperties: false },
);

/** `sort` on feed and bundle retrieval; without it the resource's own preference applies. */
export const SortQuery = Type.Object(
  { sort: Type.Optional(Type.Union([Type.Literal('last_added'), Type.Literal('date')])) },
  { additionalProperties: false },
);
