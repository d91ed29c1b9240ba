# syntax=docker/dockerfile:1
# Flowbox Manager, built and run as docs/operations.md "Build and deploy" says: the build stage has
# the development dependencies (TypeScript, Vite) and runs `npm run build`; the runtime stage has
# production dependencies only and the built files, and runs as the unprivileged `node` user.
# compose.yaml runs two of these behind a proxy, with PostgreSQL and Mosquitto.

FROM node:24-slim AS build
WORKDIR /app
# Manifests first: the dependency layer is rebuilt only when they change.
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY packages/simulator/package.json packages/simulator/
COPY packages/server/package.json packages/server/
COPY packages/web/package.json packages/web/
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY scripts ./scripts
COPY packages ./packages
RUN npm run build

FROM node:24-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    MQTT_PORT=1883 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/packages/shared/package.json packages/shared/
COPY --from=build /app/packages/simulator/package.json packages/simulator/
COPY --from=build /app/packages/server/package.json packages/server/
COPY --from=build /app/packages/web/package.json packages/web/
# Never --omit=optional: argon2's and PGlite's native parts are optional dependencies (DESIGN.md §9).
# TypeScript comes along as an optional peer of i18next (the web app's); nothing at run time uses it.
RUN npm ci --omit=dev --no-audit --no-fund \
    && rm -rf node_modules/typescript \
    && npm cache clean --force
# The same files as the deploy step of `npm test` copies (packages/server/src/deploy).
COPY --from=build /app/packages/shared/dist packages/shared/dist
COPY --from=build /app/packages/simulator/bin packages/simulator/bin
COPY --from=build /app/packages/simulator/dist packages/simulator/dist
COPY --from=build /app/packages/server/drizzle packages/server/drizzle
COPY --from=build /app/packages/server/dist packages/server/dist
COPY --from=build /app/packages/web/dist packages/web/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
# HTTP (web app and API); MQTT only for the embedded broker (no MQTT_URL).
EXPOSE 8080 1883
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/v1/health/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node itself as PID 1 handles SIGTERM: the server closes cleanly (close-with-grace).
CMD ["node", "packages/server/dist/main.js"]
