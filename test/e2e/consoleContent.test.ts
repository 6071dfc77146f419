/**
 * The console's content, referrers and mail in a real browser: the owner enters three
 * testimonials and the guarantee on the Content screen and `/`, fetched fresh, carries them in the HTML the server
 * sends (never hydrated, decision 0027); at 375 px the add-referrer form shows "link is taken" under the link field
 * and nothing runs off-screen; the Mail screen says mail is held; axe finds no violation on the content,
 * referrers and mail screens. On PostgreSQL, so the owner can be created while the server runs.
 */
import { execFileSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startServerOnPostgres, useServerAndBrowser, watchConsole } from './harness';
import { axeViolationsAtWidths } from './axe';

const OWNER = { email: 'owner@example.com', password: 'a long owner passphrase 42' };

const TESTIMONIALS = [
  { name: 'Dr. Ana Ruiz', practice: 'Ruiz Family Chiropractic', quote: 'Our front desk answers half as many routine calls.' },
  { name: 'Dr. Ben Okafor', practice: 'Okafor Spine & Wellness', quote: 'I finish my notes before I leave the clinic.' },
  { name: 'Dr. Cleo Park', practice: 'Park Sports Chiropractic', quote: 'My associate built her own workflows in a day.' },
];
const GUARANTEE = 'Thirty days to try it: not for you, every dollar back.';

/** True when something on the page reaches past the viewport's right edge (the page scrolls sideways). */
const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe("the console's content, referrers and mail", () => {
  const running = useServerAndBrowser(() => startServerOnPostgres());

  it('testimonials entered in the console are on `/`; a taken link is refused under its field at 375 px; axe passes', async () => {
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/owner-create.ts', OWNER.email], {
      env: { PATH: process.env.PATH ?? '', ...running.server.databaseEnv, OWNER_PASSWORD: OWNER.password, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    });
    const base = running.server.baseUrl;

    // A fresh install shows no invented practitioners.
    const before = await (await fetch(`${base}/`)).text();
    expect(before).not.toMatch(/Sample Practitioner/);
    expect(before).toContain('data-offer-testimonials="" hidden');

    // axe injects a script, which the page's Content-Security-Policy would refuse.
    const context = await running.browser.newContext({ bypassCSP: true, viewport: { width: 375, height: 812 } });
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${base}/admin`);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const nav = page.getByRole('navigation', { name: 'Console' });
    await page.getByRole('button', { name: 'Menu' }).click();
    await nav.getByRole('link', { name: 'Content' }).click();

    // Content: a half-filled row is refused by its field; three full rows and the guarantee are saved.
    const form = page.getByRole('form', { name: 'Offer content' });
    await form.getByRole('group', { name: 'Testimonial 1' }).getByLabel('Name').fill(TESTIMONIALS[0]!.name);
    await form.getByRole('button', { name: 'Save content' }).click();
    await page.locator('#testimonial-0-practice-error').getByText("Enter the practitioner's practice").waitFor();
    expect(await axeViolationsAtWidths(page, 'content with errors')).toEqual([]);
    for (const [index, testimonial] of TESTIMONIALS.entries()) {
      const group = form.getByRole('group', { name: `Testimonial ${index + 1}` });
      await group.getByLabel('Name').fill(testimonial.name);
      await group.getByLabel('Practice').fill(testimonial.practice);
      await group.getByLabel('Quote').fill(testimonial.quote);
    }
    await form.getByLabel('Guarantee text').fill(GUARANTEE);
    await form.getByRole('button', { name: 'Save content' }).click();
    await page.getByRole('status').getByText('Saved: the offer page shows it now.').waitFor();
    expect(await scrollsSideways(page), 'content at 375 px').toBe(false);
    expect(await axeViolationsAtWidths(page, 'content')).toEqual([]);

    // The page as the server sends it now, to anyone: the testimonials and the guarantee in the HTML.
    const after = await (await fetch(`${base}/`, { headers: { 'cache-control': 'no-cache' } })).text();
    for (const testimonial of TESTIMONIALS) {
      expect(after).toContain(testimonial.name);
      expect(after).toContain(testimonial.practice.replace('&', '&amp;'));
      expect(after).toContain(`“${testimonial.quote}”`);
    }
    expect(after).toContain(GUARANTEE);
    expect(after).not.toMatch(/data-offer-testimonials?="[^"]*" hidden/);

    // Referrers: "Dr." typed before the name is dropped from the link; a taken link is refused under its field.
    await page.getByRole('button', { name: 'Menu' }).click();
    await nav.getByRole('link', { name: 'Referrers' }).click();
    const add = page.getByRole('form', { name: 'Add a referrer' });
    await add.getByLabel("Name (after 'Dr.')").fill('Dr. Sample');
    expect(await add.getByLabel('Link (/r/…)').inputValue()).toBe('sample');
    await add.getByLabel('Short label (affiliate_id)').fill('dr-sample-2');
    await add.getByLabel('Quote').fill('Friends only.');
    await add.getByRole('button', { name: 'Add referrer' }).click();
    const slugError = page.locator('#referrer-slug-error');
    await slugError.getByText('The link /r/sample is taken: choose another.').waitFor();
    // Under the link field, not at the top of the page.
    const field = (await add.getByLabel('Link (/r/…)').boundingBox())!;
    const error = (await slugError.boundingBox())!;
    expect(error.y).toBeGreaterThan(field.y);
    expect(error.y - (field.y + field.height)).toBeLessThan(80);
    expect(error.x + error.width).toBeLessThanOrEqual(375);
    expect(await scrollsSideways(page), 'referrers at 375 px').toBe(false);
    expect(await axeViolationsAtWidths(page, 'referrers')).toEqual([]);

    // Mail: held without SMTP_URL, and said so; a held mail's long text and link stay on a phone's screen.
    const link = `${base}/account?token=[hidden]`;
    await running.server.database.query(
      `insert into outbox (kind, topic, dedupe_key, payload, status, rendered) values ('mail', 'order_confirmation', 'e2e-held', '{}', 'held', $1)`,
      [
        JSON.stringify({
          to: 'grace.hopper@example.com',
          subject: 'Your subscription is active',
          text: `Manage your subscription: ${link}\n${'A long line of text. '.repeat(20)}`,
        }),
      ],
    );
    await page.getByRole('button', { name: 'Menu' }).click();
    await nav.getByRole('link', { name: 'Mail' }).click();
    await page.getByRole('note', { name: 'Mail is not being sent' }).waitFor();
    await expect.poll(() => page.getByRole('link', { name: link }).getAttribute('href')).toBe(`${base}/account`);
    expect(await scrollsSideways(page), 'a held mail at 375 px').toBe(false);
    const text = (await page.getByText('A long line of text.', { exact: false }).boundingBox())!;
    expect(text.x + text.width).toBeLessThanOrEqual(375);
    expect(await axeViolationsAtWidths(page, 'mail with a held mail')).toEqual([]);
    await page.getByLabel('Search by recipient').fill('nobody@');
    await page.getByText('No mail to a recipient matching "nobody@".').waitFor();
    expect(await scrollsSideways(page), 'mail at 375 px').toBe(false);

    // The browser logs the expected answers (401 before sign-in, the 409 of the taken link); nothing else.
    expect(problems.filter((problem) => !/status of (401|409)/.test(problem))).toEqual([]);
    await context.close();
  });
});
