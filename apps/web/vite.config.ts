import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const api = process.env.PORTAL_API_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Maps are written for whoever debugs a build, without the comment that points browsers at them; the API
    // does not serve *.map files.
    sourcemap: 'hidden',
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
});
