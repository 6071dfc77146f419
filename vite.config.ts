import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';

/** The libraries the prerendered checkout's islands run on (src/mountIslands.tsx), bundled as one chunk. */
const LIBRARIES =
  /[\\/]node_modules[\\/](react|react-dom|scheduler|xstate|@xstate[\\/]react|styled-components|stylis|@emotion[\\/](is-prop-valid|memoize|unitless)|use-sync-external-store|use-isomorphic-layout-effect|wouter|regexparam|tslib)[\\/]/;

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
  build: isSsrBuild
    ? { outDir: 'build/prerender', sourcemap: false }
    : {
        outDir: 'dist',
        sourcemap: 'hidden',
        // Every browser the page supports preloads modules itself.
        modulePreload: { polyfill: false },
        rolldownOptions: {
          output: {
            codeSplitting: {
              // The libraries every page needs in one file, not four: each file fetched costs its headers too
              // (about 1.1 KB here), and the checkout fetches these before its card field is usable.
              groups: [{ name: 'libraries', test: LIBRARIES }],
            },
          },
        },
      },
  // Bundled into the renderer, so it runs the same ESM build of them as the browser (class names match).
  ssr: { noExternal: ['styled-components', 'wouter', 'react-hot-toast'] },
  server: {
    proxy: { '/api': `http://127.0.0.1:${process.env.PORT ?? '3000'}` },
  },
}));
