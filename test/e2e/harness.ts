/**
 * End-to-end harness: starts the server as `npm start` runs it (`build/server/main.js`, sandbox provider, a fresh
 * PGlite folder) on a free port, and Debian's Chromium through playwright-core. Needs `npm run build` and
 * `npm run build:server` first (dist/, build/server/), which `npm test` runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { freePort } from '../support/freePort';

/** Chromium from Debian's package; CHROMIUM_PATH overrides. */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface RunningServer {
  baseUrl: string;
  stop(): Promise<void>;
  /** What the server printed, for failure messages. */
  output(): string;
}

/** The server as it ships: what `npm start` runs. */
const SERVER_BUILD = 'build/server/main.js';

/** Starts the checkout server with the sandbox provider and an empty embedded database. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!existsSync('dist/index.html')) throw new Error('dist/ is missing: run `npm run build` first');
  if (!existsSync(SERVER_BUILD)) throw new Error(`${SERVER_BUILD} is missing: run \`npm run build:server\` first`);
  // A test that must know the address before the server starts (an OpenID issuer) passes its own PORT.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'checkout-e2e-'));
  let log = '';
  const child: ChildProcess = spawn(process.execPath, [SERVER_BUILD], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/root',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => (log += String(chunk)));
  child.stderr?.on('data', (chunk) => (log += String(chunk)));
  const baseUrl = `http://127.0.0.1:${port}`;
  // Within the e2e hook timeout (120 s): on a loaded machine a start has taken most of a minute.
  const deadline = Date.now() + 110_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Server exited with ${child.exitCode}:\n${log}`);
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`Server did not become healthy:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    baseUrl,
    output: () => log,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const ADMIN_URL = process.env.TEST_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface PostgresServer extends RunningServer {
  /** A client on the server's database, for the test to read what the server wrote. */
  database: pg.Client;
  /** The environment that names the server's database (DATABASE_URL, CREDENTIALS_KEY), for scripts to run on it. */
  databaseEnv: Record<string, string>;
}

/**
 * Starts the checkout server on a fresh PostgreSQL database `checkout_e2e_<random>` (trust auth on
 * 127.0.0.1:5432, TEST_POSTGRES_ADMIN_URL overrides), so the test can read the database while the server runs;
 * `stop()` also drops it.
 */
export async function startServerOnPostgres(env: Record<string, string> = {}): Promise<PostgresServer> {
  const name = `checkout_e2e_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const databaseEnv = { DATABASE_URL: url.toString(), CREDENTIALS_KEY: randomBytes(32).toString('hex') };
  const server = await startServer({ ...databaseEnv, ...env });
  const database = new pg.Client({ connectionString: url.toString() });
  await database.connect();
  return {
    ...server,
    database,
    databaseEnv,
    stop: async () => {
      await database.end();
      await server.stop();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** Uncaught exceptions of the pages of the test that is running, each with the page's address. */
const pageErrors: string[] = [];

/** The contexts open now, so a failed test can say what each page showed. */
const openContexts = new Set<BrowserContext>();

// A page that threw fails its test, even when the test's own steps went through (a failed focus is not seen).
// A test that failed prints each open page's address and words: a locator's timeout says only what it did not find.
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') {
    for (const page of [...openContexts].flatMap((each) => each.pages())) {
      const text = await page.evaluate(() => document.body?.innerText ?? '').catch((error: Error) => `(unreadable: ${error.message})`);
      console.error(`After the failure, ${page.url()} showed:\n${text.slice(0, 2000)}`);
    }
  }
  const thrown = pageErrors.splice(0);
  if (thrown.length > 0) throw new Error(`The page threw ${thrown.length} uncaught error(s):\n${thrown.join('\n')}`);
});

/** Records every uncaught exception of `context`'s pages (Playwright's `weberror`) for the afterEach above. */
function failOnPageErrors(context: BrowserContext): BrowserContext {
  openContexts.add(context);
  context.on('close', () => openContexts.delete(context));
  context.on('weberror', (webError) => {
    const error = webError.error();
    pageErrors.push(`${webError.page()?.url() ?? 'a page'}: ${error.stack ?? error.message}`);
  });
  return context;
}

/**
 * Launches headless Chromium with the flags this machine needs. Every context it opens (`newContext`, and
 * `newPage`, which opens one) fails the running test on an uncaught page error.
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run'],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => failOnPageErrors(await newContext(options));
  return browser;
}

/** Collects the page's console errors and uncaught exceptions so a test can assert there were none. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

/**
 * Starts a server (`start`, by default `startServer()`) and Chromium before the calling file's tests and stops
 * both after them; the returned object holds them once started.
 */
export function useServerAndBrowser<S extends RunningServer = RunningServer>(
  start: () => Promise<S> = () => startServer() as Promise<S>,
): { server: S; browser: Browser } {
  const running = {} as { server: S; browser: Browser };
  beforeAll(async () => {
    running.server = await start();
    running.browser = await launchBrowser();
  });
  afterAll(async () => {
    await running.browser?.close();
    await running.server?.stop();
  });
  return running;
}
