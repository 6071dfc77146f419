/**
 * `npm run bench:server`: the server's capacity, measured against a yardstick in the same run (this machine is
 * shared and noisy, so only the ratio and the p99 at a fixed offered rate are meaningful). Prints a table:
 *
 * - a bare Fastify 5 route (`GET /` answering `{ ok: true }`), the yardstick;
 * - call 1 (create) on PostgreSQL and on PGlite, as fast as 16 connections go, and at 500 requests/s offered;
 * - cold start (spawn → /healthz answering) and idle RSS of the bundled server (build/server/main.js).
 *
 * Needs `npm run build:server` first (the npm script does it) and PostgreSQL on 127.0.0.1:5432 (trust auth).
 * Targets: create on PostgreSQL ≥ 25 % of the bare route and p99 ≤ 100 ms at
 * 500 req/s offered; PGlite ≥ 200 req/s; cold start ≤ 3 s; idle RSS ≤ 150 MiB on PostgreSQL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { PRODUCT_ID } from '../src/domain/product';
import { freePort } from '../test/support/freePort';

const ADMIN_URL = process.env.TEST_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);

interface Started {
  url: string;
  child: ChildProcess;
  startMs: number;
  stop(): Promise<void>;
}

async function start(args: string[], env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const began = performance.now();
  const child = spawn(process.execPath, args, {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/root',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const startMs = performance.now() - began;
  return {
    url,
    child,
    startMs,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function rssMiB(pid: number | undefined): Promise<number> {
  return new Promise((resolve) => {
    const ps = spawn('ps', ['-o', 'rss=', '-p', String(pid)]);
    let out = '';
    ps.stdout.on('data', (chunk) => (out += String(chunk)));
    ps.on('close', () => resolve(Number(out.trim()) / 1024));
  });
}

interface Load {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

async function load(url: string, options: { method?: 'GET' | 'POST'; body?: string; rate?: number }): Promise<Load> {
  const result = await autocannon({
    url,
    method: options.method ?? 'GET',
    body: options.body,
    headers: options.body ? { 'content-type': 'application/json' } : undefined,
    connections: 16,
    duration: DURATION_S,
    ...(options.rate ? { overallRate: options.rate } : {}),
  });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

const BARE_ROUTE = `
import Fastify from 'fastify';
const app = Fastify();
app.get('/', async () => ({ ok: true }));
app.get('/healthz', async () => ({ ok: true }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
`;

async function main(): Promise<void> {
  const createBody = JSON.stringify({ productId: PRODUCT_ID, quantity: 3, affiliate_id: 'bench', affiliate_source: 'https://bench.test/' });
  const unlimited = { RATE_LIMIT_PER_MINUTE: '1000000', CHECKOUTS_PER_HOUR: '1000000', RECONCILE_INTERVAL_SECONDS: '86400' };
  const rows: string[][] = [];
  const row = (what: string, figures: Load | null, extra = '') =>
    rows.push([
      what,
      figures ? figures.requestsPerSecond.toFixed(0) : '',
      figures ? String(figures.p99Ms) : '',
      figures ? String(figures.non2xx + figures.errors) : '',
      extra,
    ]);

  const bare = await start(['--input-type=module', '-e', BARE_ROUTE], {});
  const bareLoad = await load(`${bare.url}/`, {});
  await bare.stop();
  row('bare Fastify route (yardstick)', bareLoad, '100 %');

  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const database = `checkout_bench_${randomBytes(4).toString('hex')}`;
  await admin.query(`create database ${database}`);
  const databaseUrl = new URL(ADMIN_URL);
  databaseUrl.pathname = `/${database}`;
  try {
    const postgresEnv = { ...unlimited, DATABASE_URL: databaseUrl.toString(), CREDENTIALS_KEY: randomBytes(32).toString('hex') };
    await (await start(['build/server/main.js'], postgresEnv)).stop(); // migrates once
    const onPostgres = await start(['build/server/main.js'], postgresEnv);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idleRss = await rssMiB(onPostgres.child.pid);
    const createPg = await load(`${onPostgres.url}/api/create-anon-subscription-intent`, { method: 'POST', body: createBody });
    const createPgAt500 = await load(`${onPostgres.url}/api/create-anon-subscription-intent`, {
      method: 'POST',
      body: createBody,
      rate: 500,
    });
    await onPostgres.stop();
    row('create on PostgreSQL', createPg, `${((createPg.requestsPerSecond / bareLoad.requestsPerSecond) * 100).toFixed(1)} %`);
    row('create on PostgreSQL, 500 req/s offered', createPgAt500);
    rows.push([
      'cold start on PostgreSQL (migrated)',
      '',
      '',
      '',
      `${onPostgres.startMs.toFixed(0)} ms, idle RSS ${idleRss.toFixed(0)} MiB`,
    ]);
  } finally {
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  }

  const dataDir = mkdtempSync(join(tmpdir(), 'checkout-bench-'));
  try {
    const fresh = await start(['build/server/main.js'], { ...unlimited, DATA_DIR: dataDir });
    await fresh.stop();
    const onPglite = await start(['build/server/main.js'], { ...unlimited, DATA_DIR: dataDir });
    const idleRss = await rssMiB(onPglite.child.pid);
    const createPglite = await load(`${onPglite.url}/api/create-anon-subscription-intent`, { method: 'POST', body: createBody });
    await onPglite.stop();
    row('create on PGlite', createPglite, `${((createPglite.requestsPerSecond / bareLoad.requestsPerSecond) * 100).toFixed(1)} %`);
    rows.push([
      'cold start on PGlite (new folder / existing)',
      '',
      '',
      '',
      `${fresh.startMs.toFixed(0)} ms / ${onPglite.startMs.toFixed(0)} ms, idle RSS ${idleRss.toFixed(0)} MiB`,
    ]);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  const header = ['what', 'req/s', 'p99 ms', 'non-2xx+errors', 'share of bare / notes'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((cells) => cells[column]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  console.log(`\nServer benchmark, ${DURATION_S} s per load, 16 connections, this machine now:\n`);
  console.log(line(header));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const cells of rows) console.log(line(cells));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
