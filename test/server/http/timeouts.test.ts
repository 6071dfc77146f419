/**
 * Slow clients cannot hold the server: a request whose body does not arrive within REQUEST_TIMEOUT_SECONDS is
 * answered 408 and its connection closed; a body over the limit is refused with 413. On a real socket.
 */
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helper';

describe('timeouts and body limits on a listening server', () => {
  let server: TestServer;
  let port: number;
  beforeAll(async () => {
    server = await startTestServer('pglite', { env: { REQUEST_TIMEOUT_SECONDS: '1' } });
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    port = (server.app.server.address() as AddressInfo).port;
  });
  afterAll(() => server.close());

  /** Sends `head` and a part of the body, then nothing; resolves with what the server answered and when it closed. */
  function trickle(head: string, part: string): Promise<{ answer: string; closedAfterMs: number }> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const socket = connect(port, '127.0.0.1', () => socket.write(head + part));
      let answer = '';
      socket.on('data', (chunk) => (answer += String(chunk)));
      socket.on('error', reject);
      socket.on('close', () => resolve({ answer, closedAfterMs: Date.now() - started }));
    });
  }

  it('answers 408 and closes a request whose body never finishes', async () => {
    const head =
      'POST /api/create-anon-subscription-intent HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n';
    const { answer, closedAfterMs } = await trickle(head, '{"productId":');
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(closedAfterMs).toBeGreaterThanOrEqual(900);
    expect(closedAfterMs).toBeLessThan(20_000);
  });

  it('refuses a body over 16 KiB with 413 { error }', async () => {
    const response = await server.post('/api/create-anon-subscription-intent', { padding: 'x'.repeat(20_000) });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'The request body is too large.' });
  });
});
