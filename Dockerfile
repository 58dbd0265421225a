# swapd: multi-stage build on Node 20 (Debian bookworm slim).
# Build:  docker build -t swapd .
# Run:    docker run -p 8080:8080 -e SOLANA_RPC_URL=https://... -e DATABASE_URL=postgres://... swapd
# Demo:   docker run -p 127.0.0.1:8080:8080 -e SWAPD_DEMO=1 swapd   (embedded chain with the demo content)
# Two replicas with PostgreSQL: compose.yaml
# Production (README "Access control"): keys, TLS and limits from mounted files, e.g.
#   docker run -p 8443:8080 -v /etc/swapd:/etc/swapd:ro \
#     -e API_KEYS_FILE=/etc/swapd/api-keys -e TLS_CERT_FILE=/etc/swapd/tls.crt -e TLS_KEY_FILE=/etc/swapd/tls.key \
#     -e RATE_LIMIT_RPS=20 -e RATE_LIMIT_BURST=40 -e CORS_ORIGINS=https://app.example.com \
#     -e SOLANA_RPC_URL=https://... -e DATABASE_URL=postgres://... swapd

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# A locked install: exactly the tree of the committed package-lock.json (docs/operations.md "Platforms").
RUN npm ci --no-audit --no-fund
COPY buf.yaml buf.gen.yaml tsconfig.json tsconfig.build.json ./
COPY proto ./proto
COPY scripts/protoc-gen-docs.mjs ./scripts/
COPY src ./src
# buf generate (protoc-gen-es from node_modules/.bin) + tsc → dist/, then drop dev dependencies.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
WORKDIR /app
# Production defaults: SOLANA_RPC_URL is required (SWAPD_DEMO=0); the embedded demo chain, whose
# demo wallet key is public, runs only when asked for with -e SWAPD_DEMO=1.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/var/lib/swapd \
    SWAPD_DEMO=0
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /var/lib/swapd && chown node:node /var/lib/swapd
USER node
EXPOSE 8080
VOLUME ["/var/lib/swapd"]
# GET /healthz on the port, over HTTPS when TLS_CERT_FILE is set (src/healthcheck.ts).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s CMD ["node", "dist/healthcheck.js"]
# SIGTERM from `docker stop` triggers the graceful shutdown (SHUTDOWN_TIMEOUT_MS, default 10 s).
CMD ["node", "dist/main.js"]
