import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inlineScriptHashes } from '../../server/http/securityHeaders';

const LOADER =
  "(function(){var s=document.createElement('script');s.type='module';s.src='/assets/index-1.js';document.head.appendChild(s)})()";

describe('inlineScriptHashes: the CSP sources of the built pages’ inline loader', () => {
  let distDir: string | undefined;
  afterEach(async () => {
    if (distDir) await rm(distDir, { recursive: true, force: true });
  });

  it('answers the SHA-256 of each inline script in index.html, and nothing for JSON data blocks or external scripts', async () => {
    distDir = await mkdtemp(join(tmpdir(), 'checkout-csp-'));
    await writeFile(
      join(distDir, 'index.html'),
      `<!doctype html><head><script>${LOADER}</script><script type="application/json" id="offer">{"a":1}</script><script type="module" src="/x.js"></script></head>`,
    );
    const expected = `'sha256-${createHash('sha256').update(LOADER).digest('base64')}'`;
    expect(inlineScriptHashes(distDir)).toEqual([expected]);
  });

  it('answers none without a build, or for a page without an inline script', async () => {
    expect(inlineScriptHashes(undefined)).toEqual([]);
    distDir = await mkdtemp(join(tmpdir(), 'checkout-csp-'));
    expect(inlineScriptHashes(distDir)).toEqual([]);
    await writeFile(join(distDir, 'index.html'), '<!doctype html><script type="module" src="/x.js"></script>');
    expect(inlineScriptHashes(distDir)).toEqual([]);
  });
});
