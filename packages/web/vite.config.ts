import { defineConfig } from 'vite';

// Output goes to dist/, which the server serves at / (packages/server/src/http/plugins/web-explorer.ts):
// index.html there, every other file under assets/ with its content hash in its name.
export default defineConfig({
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    chunkSizeWarningLimit: 1000,
  },
  worker: { format: 'es' },
  server: { proxy: { '/v1': 'http://127.0.0.1:8080' } },
});
