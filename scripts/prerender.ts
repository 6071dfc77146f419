/**
 * Writes the checkout's HTML at build time (run by `npm run build` after the client and the renderer are built):
 * dist/index.html becomes `/` already rendered in its first state, styles inline, for src/mountApp.tsx to hydrate;
 * dist/404.html the 404 page (hydrated too) and dist/payment-success.html the success page's loading state (drawn
 * afresh: its content depends on this browser's storage), dist/partner.html the referrer's page's loading state,
 * dist/sign-in.html the sign-in form, dist/join.html and dist/join-problem.html the join page's invitation and
 * unusable link (each filled in by the server for the request's link), dist/new-password.html the loading state
 * of /sign-in/new-password; the empty page it started from is kept as
 * dist/shell.html for the other routes, which render in the browser.
 * All are templates: the referrer's name and quote are placeholders the server fills, and compresses, per
 * request (server/referrals/offerPage.ts); they are never served as they are.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { JOIN_ANSWER_PLACEHOLDERS, type JoinAnswer } from '../src/domain/joinPage';

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
 * The prerendered `page` with its entry module (Vite's `<script type="module" src>`) requested only once the first
 * paint is on the screen, by a small inline loader: a module script in the page is fetched as soon as the parser sees it, before the
 * first paint, and a phone's browser then spends its first round trips on JavaScript the painted page does not need
 * (Lighthouse counts every request finished before the paint against LCP). The loader waits for the browser's own
 * `first-contentful-paint` entry (Paint Timing), not only a frame, as the frame's paint reaches the screen later
 * on a busy device; without Paint Timing it waits one frame, and after 1.5 s it loads anyway (a tab opened in the
 * background paints nothing). The empty page (dist/shell.html) keeps its module script: it has nothing to paint
 * before its JavaScript runs. The server allows this one inline script by its hash (server/http/securityHeaders.ts
 * `inlineScriptHashes`), never `'unsafe-inline'`.
 * @throws Error when the page has no entry module.
 */
function withEntryAfterFirstPaint(page: string): string {
  const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(page);
  if (!entry?.[1]) throw new Error('dist/index.html has no entry module script');
  const loader = [
    `(function(){var d=document,done=0;`,
    `function load(){if(done++)return;var s=d.createElement('script');s.type='module';s.src=${JSON.stringify(entry[1])};d.head.appendChild(s)}`,
    `var types=window.PerformanceObserver&&PerformanceObserver.supportedEntryTypes||[];`,
    `if(types.indexOf('paint')<0)return requestAnimationFrame(function(){setTimeout(load)});`,
    `new PerformanceObserver(function(list,observer){if(list.getEntriesByName('first-contentful-paint').length){observer.disconnect();setTimeout(load)}}).observe({type:'paint',buffered:true});`,
    `setTimeout(load,1500)})()`,
  ].join('');
  return page.replace(entry[0], () => `<script>${loader}</script>`);
}

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

/** Writes `path` rendered into the empty page as `file` (`joinAnswer`: the join page's placeholders to render). */
async function prerender(path: string, file: string, waitForChunks: boolean, joinAnswer?: JoinAnswer) {
  const { html: rendered, styles } = await renderPage(path, { waitForChunks, joinAnswer });
  const html = withoutStreamingRuntime(rendered);
  const page = shell.replace('</head>', `${styles}</head>`).replace(ROOT, `<div id="root">${html}</div>`);
  writeTemplate(file, withEntryAfterFirstPaint(page));
  console.log(`Prerendered ${path} into ${file} (${html.length.toLocaleString('en-US')} characters of HTML)`);
}
writeTemplate('dist/shell.html', shell);
await prerender('/', 'dist/index.html', true);
await prerender('/payment-success', 'dist/payment-success.html', false);
// The sign-in page's form, complete (its chunk awaited), hydrated by src/mountApp.tsx.
await prerender('/sign-in', 'dist/sign-in.html', true);
// The referrer's page in its loading state (its chunk waited for), hydrated by the browser.
await prerender('/partner', 'dist/partner.html', true);
// The join page as the server fills it in for the request's link: the invitation, or why the link cannot be used.
await prerender('/join', 'dist/join.html', true, JOIN_ANSWER_PLACEHOLDERS.invitation);
await prerender('/join', 'dist/join-problem.html', true, JOIN_ANSWER_PLACEHOLDERS.problem);
await prerender('/sign-in/new-password', 'dist/new-password.html', false);
// Any path that is not a page draws the 404 page; it does not depend on the path.
await prerender('/this-page-does-not-exist', 'dist/404.html', true);
