/**
 * `npm run bench:account-link`: does POST /api/account/link answer as fast for an email with no subscription as
 * for one with (no enumeration by timing)? Runs the bundled server (sandbox provider, embedded PGlite,
 * a real SMTP server catching the mails, so a known email's link is minted and mailed as in production), buys one
 * order, then sends BENCH_REQUESTS (200) requests for its email and as many for an unknown one, interleaved (which
 * of a pair goes first alternates), each after the answer to the last and a pause of BENCH_SPACING_MS (50), so
 * the outbox worker's run for one request is over before the next. Prints the median and p90 answer times of
 * each and the difference of the medians. Target: medians within 2 ms.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { PRODUCT_ID } from '../src/domain/product';
import { startMailCatcher } from '../test/support/mailCatcher';
import { startBuiltServer } from './support/builtServer';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const SPACING_MS = Number(process.env.BENCH_SPACING_MS ?? 50);
const WARM_UP = 20;
const TARGET_MS = 2;
const KNOWN = 'bench.buyer@example.com';
const UNKNOWN = 'nobody.here@example.com';

/** The `q` quantile (0..1) of `values`, nearest rank. */
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

async function main(): Promise<void> {
  const mail = await startMailCatcher();
  const server = await startBuiltServer('account-link', {
    SMTP_URL: mail.url,
    ACCOUNT_LINKS_PER_15_MINUTES: '1000000',
    RATE_LIMIT_PER_MINUTE: '1000000',
  });
  const base = server.url;
  try {
    const post = async (path: string, body: unknown) => {
      const started = performance.now();
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      return { status: response.status, json, ms: performance.now() - started };
    };

    // One paid order for KNOWN.
    const created = await post('/api/create-anon-subscription-intent', {
      productId: PRODUCT_ID,
      quantity: 1,
      affiliate_id: 'bench',
      affiliate_source: 'https://bench.test/',
    });
    if (created.status !== 200) throw new Error(`create answered ${created.status}`);
    const card = { number: '4242 4242 4242 4242', expMonth: 12, expYear: new Date().getFullYear() + 2, cvc: '123', postalCode: '10001' };
    const paid = await post('/api/sandbox/payment-intents/confirm', {
      clientSecret: created.json.clientSecret,
      card,
      billingDetails: { name: 'Bench Buyer', email: KNOWN },
    });
    if (paid.status !== 200) throw new Error(`confirm answered ${paid.status}`);
    const finalized = await post('/api/finalize-anon-subscription', {
      subscriptionId: created.json.subscriptionId,
      customerId: created.json.customerId,
      transactionId: created.json.transactionId,
      email: KNOWN,
      name: 'Bench Buyer',
    });
    if (finalized.status !== 200) throw new Error(`finalize answered ${finalized.status}`);

    const times: Record<string, number[]> = { [KNOWN]: [], [UNKNOWN]: [] };
    const ask = async (email: string, record: boolean) => {
      const answer = await post('/api/account/link', { email });
      if (answer.status !== 202) throw new Error(`link answered ${answer.status} for ${email}`);
      if (record) times[email]!.push(answer.ms);
      await sleep(SPACING_MS);
    };
    for (let pair = 0; pair < WARM_UP + REQUESTS; pair += 1) {
      const order = pair % 2 === 0 ? [KNOWN, UNKNOWN] : [UNKNOWN, KNOWN];
      for (const email of order) await ask(email, pair >= WARM_UP);
    }
    const linkMailCount = () => mail.mails.filter((each) => each.to.includes(KNOWN) && /Your link to manage/.test(each.subject)).length;
    for (let waited = 0; waited < 30_000 && linkMailCount() < WARM_UP + REQUESTS; waited += 100) await sleep(100);
    const linkMails = linkMailCount();
    const strayMails = mail.mails.filter((each) => each.to.includes(UNKNOWN)).length;

    const known = times[KNOWN]!;
    const unknown = times[UNKNOWN]!;
    const difference = quantile(known, 0.5) - quantile(unknown, 0.5);
    console.log(
      `\nPOST /api/account/link, ${REQUESTS} requests each, interleaved, ${SPACING_MS} ms apart (after ${WARM_UP} pairs of warm-up):\n`,
    );
    console.log('| email | median | p90 |');
    console.log('|---|---|---|');
    console.log(`| with a subscription | ${quantile(known, 0.5).toFixed(2)} ms | ${quantile(known, 0.9).toFixed(2)} ms |`);
    console.log(`| with none | ${quantile(unknown, 0.5).toFixed(2)} ms | ${quantile(unknown, 0.9).toFixed(2)} ms |`);
    console.log(
      `\nMedian difference (with − without): ${difference.toFixed(2)} ms; target within ${TARGET_MS} ms: ${Math.abs(difference) <= TARGET_MS ? 'met' : 'NOT met'}`,
    );
    console.log(`Mails caught: ${linkMails} of ${WARM_UP + REQUESTS} links to the buyer, ${strayMails} to the unknown email.`);
  } finally {
    await server.stop();
    await mail.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
