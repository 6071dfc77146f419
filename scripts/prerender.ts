/**
 * Writes the checkout's HTML at build time (run by `npm run build` after the client and the renderer are built):
 * dist/index.html becomes `/` already rendered in its first state, styles inline, for src/main.tsx to hydrate;
 * the empty page it started from is kept as dist/shell.html for the other routes, which render in the browser.
 * Both get their brotli and gzip copies, as the build's other text files do.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const ROOT = '<div id="root"></div>';

function writeWithCopies(path: string, text: string) {
  writeFileSync(path, text);
  writeFileSync(`${path}.br`, brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(`${path}.gz`, gzipSync(text, { level: 9 }));
}

const { renderPage } = (await import(new URL('../build/prerender/prerender.js', import.meta.url).href)) as typeof import('../src/prerender');
const shell = readFileSync('dist/index.html', 'utf8');
if (!shell.includes(ROOT)) throw new Error(`dist/index.html has no ${ROOT} to render into`);
const { html, styles } = renderPage('/');
writeWithCopies('dist/shell.html', shell);
writeWithCopies('dist/index.html', shell.replace('</head>', `${styles}</head>`).replace(ROOT, `<div id="root">${html}</div>`));
console.log(`Prerendered / into dist/index.html (${html.length.toLocaleString('en-US')} characters of HTML)`);
