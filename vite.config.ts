import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** Builds the SPA into dist/; `npm run dev` proxies /api to the server on PORT (default 3000). */
export default defineConfig({
  plugins: [react()],
  // 'hidden': maps are written for debugging but not referenced by the bundles; the server does not serve them.
  build: { outDir: 'dist', sourcemap: 'hidden' },
  server: {
    proxy: { '/api': `http://127.0.0.1:${process.env.PORT ?? '3000'}` },
  },
});
