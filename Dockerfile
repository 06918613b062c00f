# syntax=docker/dockerfile:1
#
# One image for every role: `docker run IMAGE api|worker|all|migrate|keys …` (default `all`).
#   docker build -t feedmill:$(node -p 'require("./package.json").version') .
# The same with Debian's Chromium, for the workers that render pages (docs/rendering.md):
#   docker build --target renderer -t feedmill-renderer:$(node -p 'require("./package.json").version') .
#
# Debian (glibc) in both stages: better-sqlite3 is compiled in the build stage and its .node file
# must load in the run stage, so both stay on bookworm (slim shares bookworm's glibc) and on the
# same Node version (a native module is built for one Node ABI): one ARG sets both.
#
# Node 24 is the Active LTS line (Node 20 reached end of life on 2026-04-30). The code itself
# still runs on Node 20.19+ (package.json "engines"), which CI tests. The base is pinned by its
# full version tag so a rebuild gets the same Node; raise it deliberately (the official image's
# tags: https://hub.docker.com/_/node, built from github.com/nodejs/docker-node 24/bookworm*).
ARG NODE_VERSION=24.20.0

# ---- build: dev dependencies, tsc, then drop the dev dependencies ------------------------------
FROM node:${NODE_VERSION}-bookworm AS build

# better-sqlite3 compiles from source when no prebuilt binary matches (node-gyp: python3, make,
# g++). node:*-bookworm usually carries them already; installing makes that a guarantee.
# Versions are not pinned (hadolint DL3008): the tag follows Debian's security updates.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
# Manifests first: the `npm ci` layer is reused until they change.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

COPY tsconfig.json ./
COPY src ./src
COPY workers ./workers
COPY schema ./schema
# tsconfig also includes test/ and bench/; .dockerignore keeps them out, so dist/ holds only the
# service (dist/src, dist/workers).
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

# ---- run: production dependencies, compiled code, schema --------------------------------------
FROM node:${NODE_VERSION}-bookworm-slim AS run

# tini as PID 1 (forwards SIGTERM to node, reaps zombies). Installed in the image rather than
# relying on `docker run --init`, because Kubernetes has no equivalent of --init: the image must
# bring its own init for the graceful shutdown in src/main/serve.ts to see SIGTERM in a pod.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 feedmill \
 && useradd --system --uid 10001 --gid 10001 --home-dir /app --no-create-home --shell /usr/sbin/nologin feedmill \
 && mkdir -p /data \
 && chown 10001:10001 /data

ENV NODE_ENV=production \
    FEEDMILL_HOST=0.0.0.0 \
    FEEDMILL_DATA_DIR=/data

WORKDIR /app
# Owned by root and read-only to the service user: the process can write only to /data (and /tmp).
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/schema ./schema
# The dashboard's stylesheet is read from its source folder (src/dashboard/assets.ts); its script is in dist.
COPY --from=build /app/src/dashboard/assets ./src/dashboard/assets

USER 10001:10001
EXPOSE 8443 9464

# `feedmill healthcheck` asks this container's probe port (FEEDMILL_METRICS_PORT, every role, the
# worker too) for /healthz, or the API's HTTPS port when the probe port is off; no curl needed.
# It loads only the config and an HTTP client, so running it every 30 s costs little. Kubernetes
# ignores HEALTHCHECK; the chart sets its own probes.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "dist/src/main/cli.js", "healthcheck"]

ENTRYPOINT ["tini", "--", "node", "dist/src/main/cli.js"]
CMD ["all"]

# ---- renderer: the run stage plus Debian's Chromium, for the workers that render pages ----------
# `docker build --target renderer`; the Helm chart's `renderer` runs it (docs/rendering.md).
FROM run AS renderer
USER 0:0
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium \
 && rm -rf /var/lib/apt/lists/*
USER 10001:10001
ENV FEEDMILL_RENDER=on \
    FEEDMILL_CHROMIUM_PATH=/usr/bin/chromium

# ---- the default target: the run stage, without a browser --------------------------------------
FROM run
