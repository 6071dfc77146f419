/**
 * `npm run bench:card-testing`: a card-testing burst against the bundled server (sandbox provider, embedded
 * database, behind one trusted proxy: TRUST_PROXY=1), and a real buyer meanwhile. Prints how many of the
 * attacker's confirmations reached the card check (a decline answered by the sandbox, as Stripe would be asked),
 * and the buyer's checkouts and request latency.
 *
 * Two bursts of BENCH_ATTEMPTS (10,000) confirmations each: one from a single address, one whose requests each
 * claim a fresh X-Forwarded-For address before the one the proxy saw. Target: ≤ 20 reach the card check per burst,
 * real buyers (each from its own address, one checkout each, every 500 ms through both bursts) complete every
 * checkout with p99 < 200 ms.
 */
import { PRODUCT_ID } from '../src/domain/product';
import { startBuiltServer } from './support/builtServer';

const ATTEMPTS = Number(process.env.BENCH_ATTEMPTS ?? 10_000);
const CONCURRENCY = 32;
const ATTACKER = '203.0.113.7';
const DECLINED = { number: '4000 0000 0000 0002', expMonth: 12, expYear: new Date().getFullYear() + 2, cvc: '123', postalCode: '10001' };
const GOOD = { ...DECLINED, number: '4242 4242 4242 4242' };

async function main(): Promise<void> {
  const server = await startBuiltServer('card-testing', { TRUST_PROXY: '1' });
  const base = server.url;
  try {
    const post = async (path: string, body: unknown, forwardedFor: string) => {
      const started = performance.now();
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
        body: JSON.stringify(body),
      });
      const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      return { status: response.status, json, ms: performance.now() - started };
    };
    const createBody = { productId: PRODUCT_ID, quantity: 1, affiliate_id: 'bench', affiliate_source: 'https://bench.test/' };

    /** One burst; returns how many confirmations reached the card check, and the answers by status. */
    async function burst(forwardedFor: (attempt: number) => string) {
      let secret: string | null = null;
      let reached = 0;
      const statuses = new Map<number, number>();
      let next = 0;
      const worker = async () => {
        while (next < ATTEMPTS) {
          const attempt = next++;
          if (!secret || attempt % 4 === 0) {
            const created = await post('/api/create-anon-subscription-intent', createBody, forwardedFor(attempt));
            if (created.status === 200) secret = String(created.json.clientSecret);
          }
          if (!secret) {
            statuses.set(429, (statuses.get(429) ?? 0) + 1);
            continue;
          }
          const confirmed = await post(
            '/api/sandbox/payment-intents/confirm',
            { clientSecret: secret, card: DECLINED, billingDetails: { name: 'Card Tester', email: 'tester@example.com' } },
            forwardedFor(attempt),
          );
          statuses.set(confirmed.status, (statuses.get(confirmed.status) ?? 0) + 1);
          if (confirmed.status === 402 && confirmed.json.code === 'card_declined') reached += 1;
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      return { reached, statuses: Object.fromEntries([...statuses].sort()) };
    }

    const buyerLatencies: number[] = [];
    let buyerCompleted = 0;
    let buyerTried = 0;
    let attacking = true;
    const buyer = (async () => {
      while (attacking) {
        buyerTried += 1;
        const BUYER = `198.51.${100 + (buyerTried >> 8)}.${buyerTried & 255}`;
        const created = await post('/api/create-anon-subscription-intent', createBody, BUYER);
        buyerLatencies.push(created.ms);
        if (created.status !== 200) continue;
        const paid = await post(
          '/api/sandbox/payment-intents/confirm',
          { clientSecret: created.json.clientSecret, card: GOOD, billingDetails: { name: 'Real Buyer', email: 'buyer@example.com' } },
          BUYER,
        );
        buyerLatencies.push(paid.ms);
        const finalized = await post(
          '/api/finalize-anon-subscription',
          {
            subscriptionId: created.json.subscriptionId,
            customerId: created.json.customerId,
            transactionId: created.json.transactionId,
            email: 'buyer@example.com',
            name: 'Real Buyer',
          },
          BUYER,
        );
        buyerLatencies.push(finalized.ms);
        if (paid.status === 200 && finalized.status === 200) buyerCompleted += 1;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    })();

    const single = await burst(() => ATTACKER);
    const rotating = await burst((attempt) => `10.${(attempt >> 16) & 255}.${(attempt >> 8) & 255}.${attempt & 255}, ${'203.0.113.8'}`);
    attacking = false;
    await buyer;

    buyerLatencies.sort((a, b) => a - b);
    const p99 = buyerLatencies[Math.min(buyerLatencies.length - 1, Math.floor(buyerLatencies.length * 0.99))] ?? 0;
    console.log(`\nCard testing, ${ATTEMPTS} confirmations per burst, ${CONCURRENCY} at a time, TRUST_PROXY=1:\n`);
    console.log(`| burst | reached the card check | answers by status |`);
    console.log(`|---|---|---|`);
    console.log(`| one address | ${single.reached} | ${JSON.stringify(single.statuses)} |`);
    console.log(`| rotating X-Forwarded-For | ${rotating.reached} | ${JSON.stringify(rotating.statuses)} |`);
    console.log(
      `\nReal buyers meanwhile (one checkout each, their own addresses): ${buyerCompleted} of ${buyerTried} checkouts completed, request p99 ${p99.toFixed(0)} ms`,
    );
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
