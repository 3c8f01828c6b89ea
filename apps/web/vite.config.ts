import { defineConfig, loadEnv, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { visualizer } from 'rollup-plugin-visualizer';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const api = process.env.PORTAL_API_URL ?? 'http://localhost:3000';

/**
 * The template demo's fake API (apps/web/src/demo) runs in MSW's service worker, which must be served from the site's
 * root. It is emitted (and served in dev) only when the demo is built in: VITE_DEMO=false leaves it out of dist.
 */
function demoServiceWorker(): Plugin {
  const fileName = 'mockServiceWorker.js';
  const source = () => readFileSync(createRequire(import.meta.url).resolve(`msw/${fileName}`), 'utf8');
  return {
    name: 'portal-demo-service-worker',
    configureServer(server) {
      server.middlewares.use(`/${fileName}`, (_request, response) => {
        response.setHeader('content-type', 'text/javascript');
        response.end(source());
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName, source: source() });
    },
  };
}

/**
 * In a production build the demo gets its own copy of every library it imports except React and React Router (which
 * must be one instance to share hooks and the router): the libraries the product shares with it (MUI, TanStack Query)
 * are then split into exactly the chunks they are split into without the demo, so the product's chunks, their preload
 * lists and the sign-in page's JavaScript stay byte for byte what they are without it.
 */
function demoOwnLibraryCopies(): Plugin {
  const demoDir = fileURLToPath(new URL('./src/demo/', import.meta.url));
  const COPY = '?demo-copy';
  const SHARED = /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/;
  return {
    name: 'portal-demo-own-library-copies',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || source.startsWith('\0')) return null;
      const inCopy = importer.endsWith(COPY);
      if (!inCopy && !importer.startsWith(demoDir)) return null;
      const resolved = await this.resolve(source, inCopy ? importer.slice(0, -COPY.length) : importer, { ...options, skipSelf: true });
      if (!resolved || resolved.external || resolved.id.includes('?') || resolved.id.startsWith('\0')) return resolved;
      if (!resolved.id.includes(`${path.sep}node_modules${path.sep}`) || SHARED.test(resolved.id)) return resolved;
      return { ...resolved, id: resolved.id + COPY };
    },
  };
}

/**
 * `npm run analyze -w @portal/web` (a build in mode `analyze`): what each chunk holds, as a treemap in
 * apps/web/bundle-stats.html (gzip sizes), to see what a screen pulls before splitting it.
 */
const analyze = (mode: string): Plugin[] =>
  mode === 'analyze'
    ? [
        visualizer({
          filename: fileURLToPath(new URL('./bundle-stats.html', import.meta.url)),
          template: 'treemap',
          gzipSize: true,
        }) as Plugin,
      ]
    : [];

export default defineConfig(({ mode }) => ({
  plugins: [
    react(),
    ...(loadEnv(mode, process.cwd(), 'VITE_').VITE_DEMO === 'false' ? [] : [demoServiceWorker(), demoOwnLibraryCopies()]),
    ...analyze(mode),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Maps are written for whoever debugs a build, without the comment that points browsers at them; the API
    // does not serve *.map files.
    sourcemap: 'hidden',
    // Vite warns of any chunk above 500 kB. Ours above it are the template demo's chart libraries, each loaded only
    // when its screen opens; what a user loads first is budgeted by e2e/tests/bundle-budget.spec.ts. The limit sits
    // just above them, so `npm start` prints no warning and a chunk that grows past them is still reported.
    chunkSizeWarningLimit: 700,
    rollupOptions: {
      // The SPA, and the tiny page the provider redirects the popup (and the silent-renew frame) to.
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        callback: fileURLToPath(new URL('./auth-callback.html', import.meta.url)),
      },
    },
  },
  // `npm run dev -w @portal/web` next to a running API: the dev server forwards the API and the provider.
  server: { proxy: { '/api': api, '/oidc': api } },
}));
