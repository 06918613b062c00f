import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { repoRoot } from '../fixtures/repo-root.js';

// What the image promises operators, read from the Dockerfile (no image is built in tests).
const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
const instructions = dockerfile.split('\n').filter((line) => !line.startsWith('#'));

t.test('both stages run one Node LTS, pinned by its full version tag', async (t) => {
  const version = /^ARG NODE_VERSION=(\d+)\.(\d+)\.(\d+)$/m.exec(dockerfile);
  t.ok(version, 'NODE_VERSION is a full x.y.z version');
  t.ok(Number(version?.[1]) >= 24 && Number(version?.[1]) % 2 === 0, `Node ${version?.[1] ?? '?'} is an LTS line (even), 24 or later`);
  const froms = instructions.filter((line) => line.startsWith('FROM '));
  // Stages built on an image, not on an earlier stage (`FROM run AS renderer` adds Chromium to run).
  const fromImages = froms.filter((line) => !/^FROM (run|build)\b/.test(line));
  t.same(
    fromImages,
    ['FROM node:${NODE_VERSION}-bookworm AS build', 'FROM node:${NODE_VERSION}-bookworm-slim AS run'],
    'build and run share the Node version (better-sqlite3 is built for one ABI)',
  );
  t.equal(froms.at(-1), 'FROM run', 'a plain build is the run stage, without a browser');
});

t.test('the HEALTHCHECK is feedmill healthcheck, with no curl in the image', async (t) => {
  t.match(dockerfile, /^\s+CMD \["node", "dist\/src\/main\/cli\.js", "healthcheck"\]$/m);
  t.notMatch(instructions.join('\n'), /\bcurl\b/);
});

t.test('the run stage carries the dashboard assets read from their source folder', async (t) => {
  t.match(dockerfile, /^COPY --from=build \/app\/src\/dashboard\/assets \.\/src\/dashboard\/assets$/m);
});
