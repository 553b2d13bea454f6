# syntax=docker/dockerfile:1
# One image for the projector and the API (docker-compose.yml picks the command). The services are
# built into plain JavaScript here (scripts/build.ts) and run by node alone, as `pnpm projector` /
# `pnpm api` do outside Docker; the demo and the CLIs run through tsx, so the image keeps the dev deps.
# Commands start node itself, not pnpm: no build at start, and SIGTERM goes straight to the service.
# Node 24 LTS: the suite passes on 20, 24 and 26 (decision 0012 for SQLite's binding on each).
FROM node:24-bookworm-slim

# On Node 24 better-sqlite3 13 loads its prebuilt addon. The toolchain serves node-gyp, which both
# installs run: 13's compiles nothing, 12's (the Node 20 alias, installed on every line and never
# loaded here) builds an addon. Both are optional: 12 failing only fills the log, and 13 failing
# stops the build where the binding is loaded (scripts/sqlite-carrega.ts, below).
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
RUN npm install -g pnpm@10.34.9 && npm cache clean --force

ENV NPM_CONFIG_UPDATE_NOTIFIER=false
# For the build's commands only (node-gyp finds Node's headers in the image; pnpm runs as in CI),
# not the containers': npm would warn about nodedir on every call there.
ARG npm_config_nodedir=/usr/local
ARG CI=true

WORKDIR /app
# The projection volume is mounted at /data; created here so the volume belongs to `node`.
RUN mkdir -p /data && chown node:node /app /data
USER node

# Dependencies first, from the lockfile alone, so code changes do not refetch them. The patches
# pnpm-workspace.yaml names are part of that: `pnpm fetch` refuses to run without them.
COPY --chown=node:node pnpm-lock.yaml pnpm-workspace.yaml ./
COPY --chown=node:node patches ./patches
RUN pnpm fetch

COPY --chown=node:node . .
RUN pnpm install --frozen-lockfile --offline \
 && pnpm exec tsx scripts/sqlite-carrega.ts \
 && pnpm build api && pnpm build projector

# Alone (`docker build -t imoveis-parceiros . && docker run -p 3000:3000 imoveis-parceiros`), the image runs the demo: its own files
# under /app/data/demo, never the projection volume docker-compose.yml gives the projector and the
# API (they name their files there), and listening beyond the container's loopback.
ENV HOST=0.0.0.0
CMD ["node", "--import", "tsx", "services/demo/src/main.ts"]
