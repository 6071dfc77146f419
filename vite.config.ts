import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';

/**
 * Builds the SPA into dist/ (with .br and .gz copies), and with `--ssr src/prerender.tsx` the renderer
 * scripts/prerender.ts uses to write the checkout's HTML at build time. `npm run dev` proxies /api to the server
 * on PORT (default 3000).
 */
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    react(),
    // Brotli and gzip copies of every text file beside it, made once at build; the server sends the one the
    // browser accepts (@fastify/static preCompressed). Source maps are never served, so not compressed.
    ...(isSsrBuild
      ? []
      : [
          compression({
            algorithms: ['brotliCompress', 'gzip'],
            include: /\.(html|js|css|svg|txt|json)$/,
            exclude: /\.map$/,
            threshold: 0,
          }),
        ]),
  ],
  // 'hidden': maps are written for debugging but not referenced by the bundles; the server does not serve them.
  build: isSsrBuild ? { outDir: 'build/prerender', sourcemap: false } : { outDir: 'dist', sourcemap: 'hidden' },
  // Bundled into the renderer, so it runs the same ESM build of them as the browser (class names match).
  ssr: { noExternal: ['styled-components', 'wouter', 'react-hot-toast'] },
  server: {
    proxy: { '/api': `http://127.0.0.1:${process.env.PORT ?? '3000'}` },
  },
}));
