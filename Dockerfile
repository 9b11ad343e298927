# Snapgraph's container image (design §16.5, docs/deployment.md): the API and the explorer on
# Node 22 LTS, Debian bookworm slim. Three stages: `deps` installs the dependencies with the
# compilers the native modules (better-sqlite3) need, `build` adds the code and builds it, and the
# last carries only what runs.
#
#   podman build --format docker -t snapgraph .      (docker build -t snapgraph . works the same)
#   podman run -d -p 8080:8080 -v snapgraph-data:/data snapgraph
#   podman run --rm -v snapgraph-data:/data snapgraph keys create
#
# --format docker keeps the HEALTHCHECK (podman's default OCI format has no field for it).

ARG NODE_MAJOR=22

FROM docker.io/library/node:${NODE_MAJOR}-bookworm-slim AS deps
LABEL org.snapgraph.stage=build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# better-sqlite3 compiles against the headers the Node image carries (never downloaded), without
# first looking for a prebuilt binary online; usearch loads the N-API binary its package ships.
ENV npm_config_nodedir=/usr/local \
    npm_config_build_from_source=better-sqlite3
# The dependencies first, from the manifests alone: this layer is rebuilt only when a manifest or
# the lockfile changes, not on every change to the code (the native build is most of the image's
# build time). Their install scripts run with `npm rebuild`; the root's `prepare` (the build)
# needs the code, and runs in the next stage. Behind a TLS-intercepting proxy, pass its CA
# bundle as a build secret (never stored in a layer):
#   podman build --secret id=ca-certificates,src=/etc/ssl/certs/ca-certificates.crt …
COPY package.json package-lock.json ./
COPY packages/server/package.json packages/server/
COPY packages/client/package.json packages/client/
COPY packages/mcp/package.json packages/mcp/
COPY packages/langchain/package.json packages/langchain/
COPY packages/ai-sdk/package.json packages/ai-sdk/
COPY packages/web/package.json packages/web/
RUN --mount=type=secret,id=ca-certificates,target=/run/secrets/ca-certificates.crt \
    if [ -s /run/secrets/ca-certificates.crt ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca-certificates.crt; fi \
 && npm ci --no-audit --no-fund --ignore-scripts \
 && npm rebuild \
 && npm cache clean --force

FROM deps AS build
COPY . .
# Everything built, then only what runs is kept.
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf packages/*/src packages/*/test packages/*/scripts packages/*/bench packages/*/*.tsbuildinfo \
           packages/web/public packages/web/index.html bench docs scripts

FROM docker.io/library/node:${NODE_MAJOR}-bookworm-slim
ARG VERSION=0.1.0
ARG REVISION=unknown
LABEL org.opencontainers.image.title="Snapgraph" \
      org.opencontainers.image.description="Knowledge-graph HTTP service: snapshots, edges, brains, memories; API and web explorer" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="https://github.com/snapgraph/snapgraph" \
      org.opencontainers.image.documentation="https://github.com/snapgraph/snapgraph/blob/main/docs/deployment.md"
# tini as PID 1: it forwards SIGTERM to Node (which then drains, design §16) and reaps zombies.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app /app
COPY scripts/container/entrypoint.sh /usr/local/bin/snapgraph-entrypoint
RUN ln -s /app/packages/server/bin/snapgraph.js /usr/local/bin/snapgraph \
 && mkdir /data && chown node:node /data
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATABASE_URL=/data/snapgraph.db
VOLUME /data
EXPOSE 8080
USER node
# Node itself asks (there is no curl in the image): healthy while /healthz answers 200.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Arguments go to the CLI (`podman run … snapgraph keys create`); the default is the server,
# started by node directly, as `npm start` does, without npm in the process tree.
ENTRYPOINT ["/usr/bin/tini", "--", "snapgraph-entrypoint"]
CMD ["node", "/app/packages/server/bin/snapgraph.js", "serve"]
