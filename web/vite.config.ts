/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// `npm run dev` serves the app on :5173 and sends the API to a local server (BINDERY_URL,
// default http://127.0.0.1:8080), so the session cookie and the same-origin check just work.
const api = process.env.BINDERY_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline script anywhere: the server's Content-Security-Policy forbids it.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
  },
  server: {
    proxy: {
      '/graphql': { target: api, changeOrigin: false },
      '/auth': { target: api, changeOrigin: false },
      '/files': { target: api, changeOrigin: false },
      '/sites': { target: api, changeOrigin: false },
    },
  },
  test: { environment: 'node' },
});
