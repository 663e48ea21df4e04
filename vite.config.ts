import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
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
