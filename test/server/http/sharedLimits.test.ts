/**
 * More than one process: two real server processes (`server/main.ts`) on one PostgreSQL database and one Redis
 * (both on 127.0.0.1) share one rate limit. Without Redis each process would let RATE_LIMIT_PER_MINUTE through.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../support/freePort';
import { createPostgresDatabase } from '../helper';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function startProcess(env: Record<string, string>): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/root',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 200) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${output}`);
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (waited > 60_000) throw new Error(`server did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, child, output: () => output };
}

describe('two server processes on one PostgreSQL and one Redis', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  const processes: Awaited<ReturnType<typeof startProcess>>[] = [];

  beforeAll(async () => {
    database = await createPostgresDatabase();
    const env = {
      DATABASE_URL: database.url,
      CREDENTIALS_KEY: randomBytes(32).toString('hex'),
      REDIS_URL,
      REDIS_KEY_PREFIX: `checkout-test-${randomBytes(4).toString('hex')}:`,
      RATE_LIMIT_PER_MINUTE: '10',
    };
    // One after the other: both migrate under an advisory lock anyway, and the second start is the faster.
    processes.push(await startProcess(env));
    processes.push(await startProcess(env));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(
      processes.map(({ child }) => {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        return exited;
      }),
    );
    await database?.drop();
  });

  it('let RATE_LIMIT_PER_MINUTE requests through in all, not per process', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      for (const { url } of processes) statuses.push((await fetch(`${url}/api/config`)).status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(6);
  });
});
