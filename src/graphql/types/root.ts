import { builder } from '../builder.js';

// The three root types; each type file adds its own fields to them. Scopes are checked per
// operation in yoga.ts: queries and subscriptions need `read`, mutations `write`.
builder.queryType({ description: 'Reads; the API key needs the `read` scope.' });
builder.mutationType({ description: 'Changes; the API key needs the `write` scope.' });
builder.subscriptionType({ description: 'Live events; the API key needs the `read` scope.' });
