# syntax=docker/dockerfile:1
# The portal in production: the API bundle (apps/api/dist), the built SPA (apps/web/dist) and the SQL migrations,
# run by plain node as an unprivileged user, with only the production dependencies installed.
ARG NODE_VERSION=22.23.3

# 0. The workspaces' manifests, which both installs below start from.
FROM node:${NODE_VERSION}-bookworm-slim AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY packages/contract/package.json packages/contract/
COPY packages/lending/package.json packages/lending/
COPY e2e/package.json e2e/

# 1. Build: every dependency (compilers, Vite), then `npm run build` (esbuild bundle of the API + Vite build of the web).
FROM manifests AS build
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages packages
COPY apps apps
ARG VITE_DEMO=false
ENV VITE_DEMO=${VITE_DEMO}
RUN npm run build

# 2. Production dependencies only (no compilers, no Vite, no test tools).
FROM manifests AS deps
RUN npm ci --omit=dev --workspace @portal/api --include-workspace-root=false --no-audit --no-fund \
  && npm cache clean --force

# 3. Run: the bundle, the migrations, the SPA, production node_modules; no sources, no secrets.
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules node_modules
COPY --from=deps --chown=root:root /app/package.json package.json
COPY --from=build --chown=root:root /app/apps/api/package.json apps/api/package.json
COPY --from=build --chown=root:root /app/apps/api/dist apps/api/dist
COPY --from=build --chown=root:root /app/apps/api/drizzle apps/api/drizzle
COPY --from=build --chown=root:root /app/apps/web/dist apps/web/dist
# The image's own unprivileged user (uid 1000 in the node images); the files above stay root's, read-only to it.
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "apps/api/dist/main.js"]
