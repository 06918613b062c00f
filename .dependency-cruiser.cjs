/** The import table of DESIGN.md, checked on every `npm run lint`. */
const layer = (name) => `^src/${name}/`;

/**
 * A room of its own: code under src/<name> imports nothing of ours outside itself and the rooms named
 * in `sees`. One shape for every such rule, so each room states only what it may see and why.
 */
const room = (name, sees, comment) => ({
  name: `${name}-sees-${sees.join('-and-') || 'nothing-of-ours'}`,
  comment,
  severity: 'error',
  from: { path: layer(name) },
  to: { path: '^src/', pathNot: [name, ...sees].map(layer) },
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'domain-is-pure',
      comment:
        'src/domain imports nothing of ours outside itself, and no third-party package but three that are pure ' +
        "computation: re2js (the filter language's regular expressions are RE2's, and the domain states their " +
        'semantics), urlpattern-polyfill (WHATWG URLPattern, a web standard Node 20 lacks, pure like URL) and ' +
        'css-what (a CSS selector parser: full-text-rules.ts validates the selectors a feed states as the extractor reads them).',
      severity: 'error',
      from: { path: layer('domain') },
      to: {
        pathNot: [
          layer('domain'),
          '^node:',
          'crypto',
          '^node_modules/re2js/',
          'node_modules/urlpattern-polyfill/',
          '(^|/)node_modules/css-what/',
        ],
        dependencyTypesNot: ['core'],
      },
    },
    {
      name: 'domain-knows-no-surface',
      comment:
        'Wire formats live at the edges (DESIGN.md): src/http owns the REST shapes and status codes, src/graphql its types. ' +
        'domain-is-pure already forbids this; this rule names it, so a loosening of that one cannot let a surface back in.',
      severity: 'error',
      from: { path: layer('domain') },
      to: { path: '^src/(http|graphql|dashboard|webhook-event|formats|web)/' },
    },
    room(
      'formats',
      ['domain'],
      'The hosted documents (RSS, Atom, JSON Feed, CSV, OPML) are wire formats above the domain: pure builders over ' +
        'domain values, seen by REST, WebSub distribution and the use cases that render.',
    ),
    room(
      'caches',
      ['domain', 'ports'],
      'In-process read caches: an LRU, and stores that wrap a port and drop entries when the change bus says so. ' +
        'Infrastructure, not use cases: they see the ports they wrap and the domain values they hold.',
    ),
    room(
      'crypto',
      [],
      'Sealing (secret-box) and hashing (secret-hash) of secrets over node:crypto: they know nothing of ours, so ' +
        'what keeps a secret is read in two small files.',
    ),
    {
      name: 'webhook-event-sees-domain-only',
      comment:
        'The webhook event object is a wire format several layers carry (app records it, ports and adapters store and ' +
        'move it, jobs, http and graphql send it): it is built from domain values alone.',
      severity: 'error',
      from: { path: '^src/webhook-event/' },
      to: { path: '^src/', pathNot: [layer('domain'), '^src/webhook-event/'] },
    },
    {
      name: 'graphql-sees-no-http',
      comment:
        'GraphQL errors carry extensions.statusCode, documented as what REST would answer: graphql reads the one table ' +
        '(src/web/status.ts, shared with REST and the dashboard) and nothing of src/http.',
      severity: 'error',
      from: { path: layer('graphql') },
      to: { path: layer('http') },
    },
    room(
      'web',
      ['domain'],
      'What the HTTP surfaces share (the status of each error code, the server-sent-event writer): REST, GraphQL and ' +
        'the dashboard import it, so none of them imports another.',
    ),
    {
      name: 'http-mounts-no-dashboard',
      comment: 'src/main mounts the dashboard beside REST and GraphQL (src/dashboard/mount.ts); REST does not carry it.',
      severity: 'error',
      from: { path: layer('http') },
      to: { path: layer('dashboard') },
    },
    room(
      'dashboard',
      ['app', 'domain', 'web'],
      'The dashboard is a client of the use cases, as REST and GraphQL are: src/main mounts it, and it imports nothing ' +
        'of src/http (what the two share lives in src/web).',
    ),
    {
      name: 'ports-see-domain-only',
      severity: 'error',
      from: { path: layer('ports') },
      to: { path: '^src/', pathNot: [layer('domain'), layer('ports'), '^src/webhook-event/'] },
    },
    {
      name: 'app-sees-domain-and-ports',
      comment:
        'Use cases see the domain and the ports, and the rooms below them that hold no use case: the event JSON ' +
        'they record, the hosted formats they render, the caches and the crypto they call.',
      severity: 'error',
      from: { path: layer('app') },
      to: {
        path: '^src/',
        pathNot: [layer('domain'), layer('ports'), layer('app'), '^src/webhook-event/', layer('formats'), layer('caches'), layer('crypto')],
      },
    },
    {
      name: 'app-uses-no-third-party',
      comment: 'Use cases reach the world through ports only.',
      severity: 'error',
      from: { path: layer('app') },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer'] },
    },
    {
      name: 'surfaces-see-app-and-domain',
      comment: 'http, graphql, the dashboard and jobs call use cases; they never reach adapters or main.',
      severity: 'error',
      from: { path: '^src/(http|graphql|dashboard|jobs)/' },
      to: { path: '^src/(adapters|main)/' },
    },
    {
      name: 'adapters-see-ports-and-domain',
      comment: 'An adapter implements ports; it imports no other adapter, no use case, no surface.',
      severity: 'error',
      from: { path: '^src/adapters/([^/]+)/' },
      to: { path: '^src/', pathNot: [layer('domain'), layer('ports'), '^src/webhook-event/', '^src/adapters/$1/'] },
    },
    {
      name: 'nothing-imports-main',
      severity: 'error',
      from: { pathNot: '^src/main/' },
      to: { path: layer('main') },
    },
    {
      name: 'client-stands-alone',
      comment: 'src/client is what API users import (feedmill/client): its generated types and openapi-fetch, nothing of the service.',
      severity: 'error',
      from: { path: layer('client') },
      to: { path: '^src/', pathNot: layer('client') },
    },
    {
      name: 'nothing-imports-client',
      comment: 'The service does not call itself over HTTP; tests and API users do.',
      severity: 'error',
      from: { path: '^src/', pathNot: layer('client') },
      to: { path: layer('client') },
    },
    {
      name: 'workers-see-domain-only',
      comment: 'Pool tasks are pure: domain types and parser libraries, no I/O of ours.',
      severity: 'error',
      from: { path: '^workers/' },
      to: { path: '^src/', pathNot: layer('domain') },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js'],
    },
  },
};
