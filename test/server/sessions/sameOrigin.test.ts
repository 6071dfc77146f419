/**
 * The Origin check decides on the path as the router reads it (server/sessions/sameOrigin.ts): every guarded
 * prefix spelled with percent-encoded letters, mixed case, double slashes and dot segments is refused from another
 * site with 403 `{ error }` (routed or not) and changes nothing, and from the site itself is answered as usual. On PGlite and
 * PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalisedPath } from '../../../server/sessions/sameOrigin';
import { accountLinks, outbox } from '../../../server/db/schema';
import { DATABASES, startTestServer, type TestServer } from '../helper';

const SITE = 'https://checkout.test';
const EVIL = 'https://evil.example';

/** One state-changing call under each guarded prefix, with a body its route accepts. */
const GUARDED_CALLS: { path: string; body: unknown }[] = [
  { path: '/api/account/link', body: { email: 'nobody@example.com' } },
  { path: '/api/admin/sign-in', body: { email: 'nobody@example.com', password: 'not a password of anyone' } },
  { path: '/api/partner/link', body: { email: 'nobody@example.com' } },
  { path: '/sign-in/forgot', body: { email: 'nobody@example.com' } },
];

/** Percent-encodes the letter at `index` of `path` (`/api` → `/%61pi`). */
const encodeAt = (path: string, index: number) => `${path.slice(0, index)}%${path.charCodeAt(index).toString(16)}${path.slice(index + 1)}`;

/** The ways a client can spell `path` that a router or a proxy may read as `path`. */
function spellings(path: string): string[] {
  const [, first, second, ...rest] = path.split('/');
  const tail = rest.length ? `/${rest.join('/')}` : '';
  return [
    encodeAt(path, 1),
    encodeAt(path, 1 + first!.length + 1),
    encodeAt(path, path.length - 1),
    [...path].map((char) => (/[a-z]/.test(char) ? `%${char.charCodeAt(0).toString(16).toUpperCase()}` : char)).join(''),
    path.toUpperCase(),
    path.replace(/[a-z]/, (char) => char.toUpperCase()),
    `/${first}/${second!.toUpperCase()}${tail}`,
    `/${path}`,
    path.replaceAll('/', '//'),
    `/${first}//${second}${tail}`,
    `/${first}/./${second}${tail}`,
    `/${first}/x/../${second}${tail}`,
    `/x/../${first}/${second}${tail}`,
    `/${first}/%2e/${second}${tail}`,
    `/${first}/x/%2e%2e/${second}${tail}`,
    `/${first}%2f${second}${tail}`,
    `/${first}\\${second}${tail}`,
  ];
}

describe('the path the Origin check reads', () => {
  it('is decoded, lower-cased, single-slashed, with its dot segments resolved', () => {
    expect(normalisedPath('/api/%61ccount/link?x=/api')).toBe('/api/account/link');
    expect(normalisedPath('//API//Account/./x/../link')).toBe('/api/account/link');
    expect(normalisedPath('/../../api/admin')).toBe('/api/admin');
    expect(normalisedPath('/api/%E0%A4%A/account')).toBe('/api/%e0%a4%a/account');
  });
});

describe.each(DATABASES)('the Origin check on every spelling of a guarded path on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      env: {
        PUBLIC_URL: SITE,
        OIDC_CLIENT_ID: 'training-platform',
        OIDC_CLIENT_SECRET: 'platform-secret-0123456789abcdef0123456789',
        OIDC_REDIRECT_URIS: 'http://127.0.0.1:9/callback',
        ACCOUNT_LINKS_PER_15_MINUTES: '100000',
        SIGN_INS_PER_15_MINUTES: '100000',
        SIGN_IN_FAILURES_PER_15_MINUTES: '100000',
      },
    });
  });
  afterAll(() => server.close());

  it.each(GUARDED_CALLS)('$path: every spelling from another site is 403 and writes nothing', async ({ path, body }) => {
    const written = async () => [await server.rows(outbox), await server.rows(accountLinks)];
    const before = await written();
    for (const spelled of [path, ...spellings(path)]) {
      const response = await server.post(spelled, body, { origin: EVIL });
      expect(response.statusCode, spelled).toBe(403);
      expect(response.json(), spelled).toEqual({ error: 'This request must come from this site.' });
    }
    expect(await written()).toEqual(before);
    // From the site itself each spelling is answered as usual: routed, or 404 for one no route takes.
    for (const spelled of spellings(path)) {
      const sameSite = await server.post(spelled, body, { origin: SITE });
      expect(sameSite.statusCode, `${spelled} from the site`).not.toBe(403);
      expect(sameSite.statusCode, `${spelled} from the site`).toBeLessThan(500);
    }
  });

  it('the percent-encoded spellings the router takes reach their route from the site itself', async () => {
    for (const { path, body } of GUARDED_CALLS) {
      const encoded = encodeAt(path, 5);
      const response = await server.post(encoded, body, { origin: SITE });
      expect(response.statusCode, encoded).toBeGreaterThanOrEqual(200);
      expect([403, 404, 500], encoded).not.toContain(response.statusCode);
    }
  });
});
