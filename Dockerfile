# swapd: multi-stage build on Node 20 (Debian bookworm slim).
# Build:  docker build -t swapd .
# Run:    docker run -p 8080:8080 -e SOLANA_RPC_URL=https://... -e DATABASE_URL=postgres://... swapd

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Not `npm ci`: the lockfile lacks the non-linux optional buf binaries (reference/notes/toolchain.md §0).
RUN npm install --no-audit --no-fund
COPY buf.yaml buf.gen.yaml tsconfig.json tsconfig.build.json ./
COPY proto ./proto
COPY src ./src
# buf generate (protoc-gen-es from node_modules/.bin) + tsc → dist/, then drop dev dependencies.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/var/lib/swapd
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /var/lib/swapd && chown node:node /var/lib/swapd
USER node
EXPOSE 8080
VOLUME ["/var/lib/swapd"]
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SIGTERM from `docker stop` triggers the graceful shutdown (SHUTDOWN_TIMEOUT_MS, default 10 s).
CMD ["node", "dist/main.js"]
