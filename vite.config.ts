import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompress } from './scripts/precompress.mjs';

export default defineConfig({
  plugins: [react(), precompress()],
  // One spelling for shared code everywhere (tsconfig.json "paths" says the same for tsc, tsx and esbuild).
  resolve: { alias: { '@shared': fileURLToPath(new URL('./shared', import.meta.url)) } },
  build: {
    outDir: 'dist',
    // dist/.vite/manifest.json (never served: a dot directory) tells the first-load budget test which chunk is which.
    manifest: true,
    emptyOutDir: true,
    // The back-office (Refine) and charts are large by design; each is its own lazy chunk.
    chunkSizeWarningLimit: 1500,
    // No inline scripts: the CSP allows scripts from our own origin only.
    modulePreload: { polyfill: false },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
});
