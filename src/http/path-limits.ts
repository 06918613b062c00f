/**
 * The longest path segment routed; a longer one is 414 `uri_too_long`. Far above any id, so an id of
 * the wrong shape reaches its route's schema and is answered 400 or 404, as the OpenAPI document says.
 */
export const maxParamLength = 2048;
