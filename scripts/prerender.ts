/**
 * Writes the checkout's HTML at build time (run by `npm run build` after the client and the renderer are built):
 * dist/index.html becomes `/` already rendered in its first state, styles inline, for src/mountApp.tsx to hydrate;
 * dist/404.html the 404 page (hydrated too) and dist/payment-success.html the success page's loading state (drawn
 * afresh: its content depends on this browser's storage), dist/partner.html the referrer's page's loading state,
 * dist/join.html and dist/new-password.html those of /join and /sign-in/new-password; the empty page it started
 * from is kept as
 * dist/shell.html for the other routes, which render in the browser.
 * All are templates: the referrer's name and quote are placeholders the server fills, and compresses, per
 * request (server/referrals/offerPage.ts); they are never served as they are.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

const ROOT = '<div id="root"></div>';

function writeTemplate(path: string, text: string) {
  writeFileSync(path, text);
  // Compressed copies of a template would be served by no one; remove any the client build made.
  rmSync(`${path}.br`, { force: true });
  rmSync(`${path}.gz`, { force: true });
}

const { renderPage } = (await import(
  new URL('../build/prerender/prerender.js', import.meta.url).href
)) as typeof import('../src/prerender');
const shell = readFileSync('dist/index.html', 'utf8');
if (!shell.includes(ROOT)) throw new Error(`dist/index.html has no ${ROOT} to render into`);
/**
 * `html` without the inline scripts React's renderer adds for its Suspense boundaries (its streaming runtime, which
 * reveals boundaries whose content arrives later): no boundary here waits for content (each is complete, or left
 * to the browser to draw, `<!--$!-->`), so they have nothing to do, and the page's Content-Security-Policy
 * (`script-src 'self'`) would refuse them with a console error.
 * @throws Error when a boundary waits for content (`<!--$?-->`).
 */
function withoutStreamingRuntime(html: string): string {
  if (html.includes('<!--$?-->')) throw new Error('A Suspense boundary waits for content in the prerendered HTML');
  return html.replace(/<script>[\s\S]*?<\/script>/g, '');
}

/** Writes `path` rendered into the empty page as `file`. */
async function prerender(path: string, file: string, waitForChunks: boolean) {
  const { html: rendered, styles } = await renderPage(path, { waitForChunks });
  const html = withoutStreamingRuntime(rendered);
  writeTemplate(file, shell.replace('</head>', `${styles}</head>`).replace(ROOT, `<div id="root">${html}</div>`));
  console.log(`Prerendered ${path} into ${file} (${html.length.toLocaleString('en-US')} characters of HTML)`);
}
writeTemplate('dist/shell.html', shell);
await prerender('/', 'dist/index.html', true);
await prerender('/payment-success', 'dist/payment-success.html', false);
// The sign-in page's form, complete (its chunk awaited), hydrated by src/mountApp.tsx.
await prerender('/sign-in', 'dist/sign-in.html', true);
// The referrer's page in its loading state (its chunk waited for), hydrated by the browser.
await prerender('/partner', 'dist/partner.html', true);
await prerender('/join', 'dist/join.html', false);
await prerender('/sign-in/new-password', 'dist/new-password.html', false);
// Any path that is not a page draws the 404 page; it does not depend on the path.
await prerender('/this-page-does-not-exist', 'dist/404.html', true);
