/**
 * Referrers and the owner's console in a real browser:
 * the owner is created with `npm run owner:create`'s script, signs in at /admin and adds a referrer; a buyer
 * opens that referrer's link in another browser, sees 'For Friends of Dr. {name} Only' in the page as served,
 * and buys 3 seats with 4242; the console shows the order under that referrer at $1,000/month and the funnel.
 * On PostgreSQL, so the test can read what the server wrote.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { chooseSeats, expectPaymentSuccessful, fillBuyer, fillCard, submit, TEST_CARDS } from './checkoutFlow';
import { startServerOnPostgres, useServerAndBrowser, watchConsole } from './harness';

const OWNER = { email: 'owner@example.com', password: 'a long owner passphrase 42' };

describe("referrers and the owner's console", () => {
  const running = useServerAndBrowser(() => startServerOnPostgres());

  it('a referrer added in the console gets a working link, and the paid order is attributed to it', async () => {
    const created = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/owner-create.ts', OWNER.email], {
      env: { PATH: process.env.PATH ?? '', ...running.server.databaseEnv, OWNER_PASSWORD: OWNER.password, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    });
    expect(created).toContain(`Owner ${OWNER.email} created`);

    // The owner signs in and adds a referrer.
    const ownerContext = await running.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const console = await ownerContext.newPage();
    const consoleProblems = watchConsole(console);
    const adminResponse = await console.goto(`${running.server.baseUrl}/admin`);
    expect(adminResponse?.status()).toBe(200);
    await console.getByLabel('Email').fill(OWNER.email);
    await console.getByLabel('Password').fill('not the password');
    await console.getByRole('button', { name: 'Sign in' }).click();
    await console.getByRole('alert').filter({ hasText: 'Wrong email or password.' }).waitFor();
    await console.getByLabel('Password').fill(OWNER.password);
    await console.getByRole('button', { name: 'Sign in' }).click();
    await console.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await console.getByRole('link', { name: 'Referrers' }).click();
    const addForm = console.getByRole('form', { name: 'Add a referrer' });
    await addForm.getByLabel('Link (/r/…)').fill('jane-doe');
    await addForm.getByLabel("Name (after 'Dr.')").fill('Jane Doe');
    await addForm.getByLabel('Short label (affiliate_id)').fill('dr-jane-doe');
    await addForm.getByLabel('Quote').fill('My patients noticed the difference before I did.');
    await addForm.getByRole('button', { name: 'Add referrer' }).click();
    await console.getByRole('table', { name: 'Referrers' }).getByText('/r/jane-doe', { exact: true }).waitFor();

    // A buyer follows the link in another browser and buys 3 seats.
    const buyerContext = await running.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await buyerContext.newPage();
    const pageProblems = watchConsole(page);
    const landing = await page.goto(`${running.server.baseUrl}/r/jane-doe`);
    expect(new URL(page.url()).pathname).toBe('/');
    // Rendered by the server: no other referrer ever shows.
    expect(await landing!.text()).toContain('For Friends of Dr. Jane Doe Only');
    await page.getByText('For Friends of Dr. Jane Doe Only').waitFor();
    await page.getByText('— Dr. Jane Doe').waitFor();
    await page.getByLabel('Card number').waitFor({ timeout: 20_000 });
    await chooseSeats(page, 3);
    await fillBuyer(page, { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' });
    await fillCard(page, TEST_CARDS.succeeds);
    await submit(page);
    await expectPaymentSuccessful(page, '$1,000', 3);
    expect(pageProblems).toEqual([]);

    const orders = await running.server.database.query<{ quantity: number; amount_cents: number; slug: string; affiliate_id: string }>(
      "select o.quantity, o.amount_cents, r.slug, o.affiliate_id from orders o join referrers r on r.id = o.referrer_id where o.email = 'grace@example.com'",
    );
    expect(orders.rows).toEqual([{ quantity: 3, amount_cents: 100_000, slug: 'jane-doe', affiliate_id: 'dr-jane-doe' }]);

    // The owner sees the order under that referrer, and the funnel.
    await console.getByRole('link', { name: 'Orders' }).click();
    const row = console.getByRole('table', { name: 'Orders' }).getByRole('row').filter({ hasText: 'Grace Hopper' });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain('Dr. Jane Doe');
    expect(await row.textContent()).toContain('$1,000/month');
    await row.getByRole('link').click();
    await console.getByRole('list', { name: 'Events' }).getByText('Paid for 3 seats: $1,000/month').waitFor();
    await console.getByRole('link', { name: 'Dashboard' }).click();
    const funnel = console.getByRole('table', { name: 'Conversion by referrer' }).getByRole('row').filter({ hasText: 'Dr. Jane Doe' });
    await funnel.waitFor();
    // Referrer, views, opened, submitted, paid, views → paid, paid seats, MRR.
    expect(await funnel.getByRole('cell').allTextContents()).toEqual(['Dr. Jane Doe', '1', '1', '1', '1', '100%', '3', '$1,000']);
    expect(consoleProblems.filter((problem) => !problem.includes('401'))).toEqual([]);
    await buyerContext.close();
    await ownerContext.close();
  });
});
