import { readmeFlow } from './readme-flow.js';

// Embedded defaults: what `npm start` runs.
await readmeFlow({});
