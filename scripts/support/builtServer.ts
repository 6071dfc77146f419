/**
 * The bundled server (`build/server/main.js`, made by `npm run build:server`) as the benchmarks run it: its own
 * process on a free loopback port, a fresh PGlite folder, error-level logs, plus `env`. Resolves once GET /healthz
 * answers 200; `stop()` ends the process, waits for it, and removes the folder.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../test/support/freePort';

interface BuiltServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  stop: () => Promise<void>;
}

/** Starts the bundled server with `env` (a name for its temporary folder: `label`). */
export async function startBuiltServer(label: string, env: Record<string, string> = {}): Promise<BuiltServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), `checkout-${label}-`));
  const child = spawn(process.execPath, ['build/server/main.js'], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    while (
      !(await fetch(`${url}/healthz`).then(
        (response) => response.ok,
        () => false,
      ))
    )
      await new Promise((resolve) => setTimeout(resolve, 50));
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}
