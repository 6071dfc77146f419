/**
 * The owner's first sign-in shows what is left to set up (server/admin/setup.ts): the default referrer still named
 * "Sample", no testimonials, the guarantee never saved; each step goes once done. The default referrer stays
 * enabled, and once the owner named a real one visitors without a link never meet the placeholder again, even when
 * it cannot be read as active (docs/decisions/0062). On PGlite and PostgreSQL.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveOwner } from '../../../server/admin/owners';
import { referrers } from '../../../server/db/schema';
import type { Dashboard, Referrer } from '../../../src/contract/admin';
import { REFERRER_PLACEHOLDERS } from '../../../src/domain/offerReferrer';
import { DATABASES, startTestServer, type TestServer } from '../helper';

const OWNER = { email: 'setup-owner@example.com', password: 'correct horse battery staple' };
const TEMPLATE = `<!doctype html><html><head><title>Checkout</title></head><body><div id="root">For Friends of Dr. ${REFERRER_PLACEHOLDERS.name} Only</div></body></html>`;

describe.each(DATABASES)('what is left to set up on %s', (kind) => {
  let server: TestServer;
  let owner: string;
  let distDir: string;

  beforeAll(async () => {
    distDir = await mkdtemp(join(tmpdir(), 'checkout-setup-'));
    await mkdir(join(distDir, 'assets'));
    await writeFile(join(distDir, 'index.html'), TEMPLATE);
    await writeFile(join(distDir, 'shell.html'), '<!doctype html><html><head></head><body><div id="root"></div></body></html>');
    server = await startTestServer(kind, { distDir });
    await saveOwner(server.db, OWNER.email, OWNER.password);
    const signedIn = await server.post('/api/admin/sign-in', OWNER);
    owner = `owner_session=${signedIn.cookies.find((each) => each.name === 'owner_session')!.value}`;
  });
  afterAll(async () => {
    await server.close();
    await rm(distDir, { recursive: true, force: true });
  });

  const send = (method: 'GET' | 'PUT' | 'PATCH', url: string, payload?: unknown) =>
    server.app.inject({ method, url, headers: { cookie: owner }, ...(payload ? { payload: payload } : {}) });
  const setup = async () => {
    const response = await send('GET', '/api/admin/dashboard');
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Dashboard>().setup;
  };
  const sample = async () =>
    (await send('GET', '/api/admin/referrers')).json<{ referrers: Referrer[] }>().referrers.find((each) => each.slug === 'sample')!;
  const offerName = async () => /For Friends of Dr\. (.*) Only/.exec((await server.app.inject({ method: 'GET', url: '/' })).body)?.[1];

  it('lists each step until it is done', async () => {
    expect(await setup()).toEqual(['default_referrer', 'testimonials', 'guarantee']);
    expect(await offerName()).toBe('Sample');

    const guarantee = { testimonials: [], guarantee: 'Your money back within 30 days, no questions asked.' };
    expect((await send('PUT', '/api/admin/content', guarantee)).statusCode).toBe(200);
    expect(await setup()).toEqual(['default_referrer', 'testimonials']);

    const testimonial = { name: 'Dr. Ada Palmer', practice: 'Palmer Chiropractic', quote: 'My evenings are mine again.' };
    expect((await send('PUT', '/api/admin/content', { ...guarantee, testimonials: [testimonial] })).statusCode).toBe(200);
    expect(await setup()).toEqual(['default_referrer']);

    const renamed = await send('PATCH', `/api/admin/referrers/${(await sample()).id}`, { displayName: 'Jane Doe' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await setup()).toEqual([]);
    expect(await offerName()).toBe('Jane Doe');
  });

  it('keeps the default referrer enabled, and never shows the placeholder again once it was named', async () => {
    const { id } = await sample();
    const refused = await send('PATCH', `/api/admin/referrers/${id}`, { status: 'disabled' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error:
        'Dr. Jane Doe is the referrer the offer names for visitors without a link, so it stays enabled: edit the name and quote instead.',
    });
    expect((await sample()).status).toBe('active');

    // Disabled behind the console's back (or unreadable): the offer keeps the name it last read, not "Sample".
    await server.db.update(referrers).set({ status: 'disabled' }).where(eq(referrers.id, id));
    expect(await offerName()).toBe('Jane Doe');
    expect(await setup()).toEqual(['default_referrer']);
  });
});
