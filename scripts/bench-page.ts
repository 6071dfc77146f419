/**
 * `npm run bench:page`: the checkout page (and the sign-in, join and partner pages: PAGES) on a phone, as Lighthouse 12 (mobile preset: simulated slow 4G and a
 * 4× slower CPU) sees it, performance and accessibility, against a static copy of the same page in the same run. The static copy is the page
 * as rendered once the card field is ready, saved without its scripts and served brotli-compressed by a bare Fastify route, so it
 * is the best any client-rendered page could do. RUNS (default 5) runs of each, interleaved; medians printed, and
 * the long tasks behind the app's median TBT. Lighthouse simulates a 4× slower CPU than this machine's, so its
 * figures move with the machine: each run's `benchmarkIndex` (Lighthouse's measure of this machine's speed) and
 * the load average are printed beside them, and a figure taken on a busy or slower machine is not a result.
 * Needs `npm run build` and `npm run build:server` (the npm script does both) and Debian's Chromium.
 */
import { cpus, loadavg } from 'node:os';
import { brotliCompressSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import Fastify from 'fastify';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { freePort } from '../test/support/freePort';
import { startBuiltServer } from './support/builtServer';

const RUNS = Number(process.env.RUNS ?? 5);
/**
 * The prerendered pages measured, each against its own static copy (PAGES, comma-separated; default all): the
 * checkout, and the sign-in, join and partner pages (the same budgets as the checkout), opened as a
 * visitor without a token or session first sees them.
 */
const PAGES = (process.env.PAGES ?? '/,/sign-in,/join?token=unknown,/partner').split(',');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

interface Figures {
  score: number;
  accessibility: number;
  lcp: number;
  fcp: number;
  tbt: number;
  cls: number;
  bytes: number;
  /** Lighthouse's measure of this machine's CPU speed during the run (higher is faster). */
  benchmarkIndex: number;
  /** The machine's 1-minute load average when the run ended. */
  load: number;
  /** Lighthouse's `long-tasks` audit: the main-thread tasks over 50 ms, simulated (4× CPU), in page order. */
  longTasks: { url: string; startTime: number; duration: number }[];
}

/** The machine as the figures depend on it: its CPUs and its load averages (1, 5, 15 min). */
const describeMachine = () =>
  `${cpus().length} CPUs, load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')} at start`;

/** The median of the finite values: a run Lighthouse could not measure (NaN, reported when it happens) is left out. */
const median = (values: number[]) => {
  const finite = values.filter(Number.isFinite).sort((a, b) => a - b);
  return finite[Math.floor(finite.length / 2)] ?? NaN;
};

/**
 * The page as the visitor sees it once it is ready (the checkout: its card field; another page: its network
 * quiet), without scripts and with its styles written out: what a static copy would serve.
 */
async function staticCopyOf(url: string, path: string): Promise<string> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  try {
    const page = await browser.newPage({ viewport: { width: 412, height: 823 } });
    await page.goto(url);
    if (path === '/') await page.getByLabel('Card number').waitFor({ timeout: 30_000 });
    else await page.waitForLoadState('networkidle');
    return await page.evaluate(() => {
      document.querySelectorAll('script, link[rel="modulepreload"]').forEach((element) => element.remove());
      // Styles a library inserted through the CSSOM (styled-components in production) are not in the element's
      // text: written out, so the copy is styled as the page is.
      document.querySelectorAll('style').forEach((style) => {
        const rules = style.sheet ? [...style.sheet.cssRules].map((rule) => rule.cssText).join('\n') : '';
        if (rules && !style.textContent?.trim()) style.textContent = rules;
      });
      return `<!doctype html>${document.documentElement.outerHTML}`;
    });
  } finally {
    await browser.close();
  }
}

/** Lighthouse's tries at one run: about one load in ten its trace misses (NO_NAVSTART), and the next load does not. */
const TRIES = 3;

async function audit(url: string, port: number): Promise<Figures> {
  let lhr: NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'] | undefined;
  for (let attempt = 1; attempt <= TRIES; attempt += 1) {
    const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    lhr = result.lhr;
    if (!lhr.runtimeError) break;
    console.warn(`Lighthouse could not measure ${url} (try ${attempt} of ${TRIES}): ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  }
  if (!lhr) throw new Error(`Lighthouse returned nothing for ${url}`);
  const value = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
    lcp: value('largest-contentful-paint'),
    fcp: value('first-contentful-paint'),
    tbt: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    bytes: value('total-byte-weight'),
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    load: loadavg()[0] ?? NaN,
    longTasks: ((lhr.audits['long-tasks']?.details as { items?: Figures['longTasks'] } | undefined)?.items ?? [])
      .map(({ url, startTime, duration }) => ({ url, startTime: Math.round(startTime), duration: Math.round(duration) }))
      .sort((a, b) => a.startTime - b.startTime),
  };
}

/** Audits `path` RUNS times against its static copy, interleaved, and prints the figures. */
async function benchPage(base: string, path: string, chrome: chromeLauncher.LaunchedChrome): Promise<void> {
  const appUrl = `${base}${path}`;
  // Connections Chromium keeps alive would hold close() for the keep-alive timeout (72 s): closed at once.
  const copy = Fastify({ forceCloseConnections: true });
  try {
    const html = await staticCopyOf(appUrl, path);
    // Compressed as the app's pages are (brotli), so the copy differs from the app only in what runs in it.
    const compressed = brotliCompressSync(html);
    copy.get(new URL(path, 'http://page').pathname, async (_request, reply) =>
      reply.type('text/html').header('Content-Encoding', 'br').header('Vary', 'Accept-Encoding').send(compressed),
    );
    const copyUrl = `${await copy.listen({ port: await freePort(), host: '127.0.0.1' })}${path}`;
    const machineAtStart = describeMachine();
    const app: Figures[] = [];
    const stat: Figures[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      app.push(await audit(appUrl, chrome.port));
      stat.push(await audit(copyUrl, chrome.port));
    }
    const row = (name: string, of: (figures: Figures) => number, unit = '') => {
      const a = median(app.map(of));
      const s = median(stat.map(of));
      return {
        figure: name,
        app: `${Math.round(a * 1000) / 1000}${unit}`,
        'static copy': `${Math.round(s * 1000) / 1000}${unit}`,
        ratio: s ? (a / s).toFixed(2) : '',
      };
    };
    console.log(`${path}: Lighthouse ${RUNS}× each, mobile preset, interleaved; medians (${machineAtStart}):`);
    console.table([
      row('performance score', (f) => f.score),
      row('accessibility score', (f) => f.accessibility),
      row('LCP', (f) => Math.round(f.lcp), ' ms'),
      row('FCP', (f) => Math.round(f.fcp), ' ms'),
      row('TBT', (f) => Math.round(f.tbt), ' ms'),
      row('CLS', (f) => f.cls),
      row('bytes', (f) => f.bytes),
      row('benchmarkIndex', (f) => f.benchmarkIndex),
      {
        figure: 'LCP ratio, median of the runs’ pairs (target ≤ 1.15)',
        app: '',
        'static copy': '',
        ratio: median(app.map((a, index) => a.lcp / (stat[index]?.lcp ?? NaN))).toFixed(2),
      },
      row('load average (1 min)', (f) => Math.round(f.load * 100) / 100),
    ]);
    console.log('Each run, in order (app | static copy):');
    console.table(
      app.map((a, index) => {
        const s = stat[index];
        return {
          'LCP ms': `${Math.round(a.lcp)} | ${Math.round(s?.lcp ?? NaN)}`,
          'LCP ratio': s ? (a.lcp / s.lcp).toFixed(2) : '',
          'TBT ms': `${Math.round(a.tbt)} | ${Math.round(s?.tbt ?? NaN)}`,
          performance: `${a.score} | ${s?.score ?? ''}`,
          benchmarkIndex: `${a.benchmarkIndex} | ${s?.benchmarkIndex ?? ''}`,
          'load average': `${a.load.toFixed(2)} | ${s?.load.toFixed(2) ?? ''}`,
        };
      }),
    );
    // What TBT is made of: the long tasks of the app's run with the median TBT.
    const medianRun = [...app].sort((a, b) => a.tbt - b.tbt)[Math.floor(app.length / 2)];
    console.log('Long tasks of the app run with the median TBT (ms, simulated):');
    console.table(medianRun?.longTasks.map(({ url, startTime, duration }) => ({ url: url.replace(base, ''), startTime, duration })));
  } finally {
    await copy.close();
  }
}

async function main() {
  const server = await startBuiltServer('page-bench', { RATE_LIMIT_PER_MINUTE: '100000', CHECKOUTS_PER_HOUR: '100000' });
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: FLAGS });
  try {
    for (const path of PAGES) await benchPage(server.url, path, chrome);
  } finally {
    chrome.kill();
    await server.stop();
  }
}

await main();
