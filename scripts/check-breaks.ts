/**
 * `npm run test:breaks`: the deliberate breaks (docs/testing.md, "Deliberate breaks"). Each break changes one rule
 * a page must keep (a word, a count, a delay) in the product's code, runs the model test that holds that page to
 * its rule, and puts the code back: the break is caught when that test fails. The expected words and timings live
 * in the tests (test/model/pageRules.ts, specToasts.ts), written from the spec and the decisions, so a break in
 * the product alone must fail them.
 *
 * - First runs every break's test file once unbroken (a test failing anyway would "catch" every break); `--no-baseline`
 *   skips that.
 * - `--only WORD` keeps the breaks whose page or rule contains WORD (any case; repeatable).
 * - Refuses to start when a file it would break has uncommitted changes, and restores the file after each break,
 *   on an error, Ctrl-C or SIGTERM alike.
 *
 * Prints each break with the first failing test's name and its time; exits 1 when a break is not caught, when a
 * break's text is not found exactly once in its file (the code moved: update the break), or the baseline fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

interface Break {
  /** The page whose rule it breaks. */
  page: string;
  /** The rule, and where it is written. */
  rule: string;
  file: string;
  /** The text changed: it must occur exactly once in `file`. */
  from: string;
  to: string;
  /** The model test that holds the page to the rule. */
  test: string;
}

const CHECKOUT = 'test/model/checkout.model.test.tsx';
const PUBLIC_CONFIG = 'test/model/publicConfig.model.test.tsx';

const BREAKS: Break[] = [
  {
    page: 'checkout',
    rule: "a toast's text swapped: 'Update Failed' (spec §8)",
    file: 'src/machines/toasts.ts',
    from: "destructive('Update Failed', 'Failed to update team size. Please try again.')",
    to: "destructive('Update Error', 'Failed to update team size. Please try again.')",
    test: CHECKOUT,
  },
  {
    page: 'checkout',
    rule: "a count off by one: 'Team size updated to N members.' (spec §4)",
    file: 'src/machines/toasts.ts',
    from: 'Team size updated to ${seats} ',
    to: 'Team size updated to ${seats + 1} ',
    test: CHECKOUT,
  },
  {
    page: 'checkout',
    rule: 'a delay shortened: the seat debounce 2000 → 1900 ms (spec §9)',
    file: 'src/machines/checkoutTimings.ts',
    from: 'seatDebounce: 2000,',
    to: 'seatDebounce: 1900,',
    test: CHECKOUT,
  },
  {
    page: 'checkout',
    rule: 'a delay shortened: call 1 500 → 300 ms after the page opens (spec §9)',
    file: 'src/machines/checkoutTimings.ts',
    from: 'initDelay: 500,',
    to: 'initDelay: 300,',
    test: CHECKOUT,
  },
  {
    page: 'checkout',
    rule: "a delay lengthened: 'Get Started' focuses the first name 800 → 1000 ms later (spec §2, §9)",
    file: 'src/machines/checkoutTimings.ts',
    from: 'firstNameFocus: 800,',
    to: 'firstNameFocus: 1000,',
    test: CHECKOUT,
  },
  {
    page: 'checkout',
    rule: 'a delay shortened: the confetti 4 s → 3 s (spec §9)',
    file: 'src/machines/checkoutTimings.ts',
    from: 'confetti: 4000,',
    to: 'confetti: 3000,',
    test: CHECKOUT,
  },
  {
    page: 'checkout',
    rule: "'Initializing secure checkout...' while call 1 runs (spec §2)",
    file: 'src/views/checkout/PaymentPanel.tsx',
    from: '>Initializing secure checkout...<',
    to: '>Initializing checkout...<',
    test: CHECKOUT,
  },
  {
    page: 'payment form',
    rule: "'Loading payment form...' until the configuration is read (spec §2)",
    file: 'src/views/payment/LoadingPaymentForm.tsx',
    from: '>Loading payment form...<',
    to: '>Loading the payment form...<',
    test: PUBLIC_CONFIG,
  },
  {
    page: 'payment form',
    rule: "the configuration unreachable: 'Failed to load checkout configuration'",
    file: 'src/api/checkoutApi.ts',
    from: "config: 'Failed to load checkout configuration',",
    to: "config: 'Could not load the checkout configuration',",
    test: PUBLIC_CONFIG,
  },
  {
    page: 'every read',
    rule: 'a count off by one: 3 retries → 2 (spec §9, decision 0051)',
    file: 'src/api/reads.ts',
    from: 'retries: 3,',
    to: 'retries: 2,',
    test: PUBLIC_CONFIG,
  },
  {
    page: 'every read',
    rule: 'a delay shortened: the first retry 1000 → 800 ms (spec §9, decision 0051)',
    file: 'src/api/reads.ts',
    from: 'firstRetryDelay: 1000,',
    to: 'firstRetryDelay: 800,',
    test: PUBLIC_CONFIG,
  },
  {
    page: 'every read',
    rule: 'the backoff not exponential: 1, 2, 3 s instead of 1, 2, 4 s (spec §9, decision 0051)',
    file: 'src/api/reads.ts',
    from: 'READ_DEFAULTS.firstRetryDelay * 2 ** (retry - 1)',
    to: 'READ_DEFAULTS.firstRetryDelay * retry',
    test: PUBLIC_CONFIG,
  },
  {
    page: 'notice before a second purchase',
    rule: 'a delay shortened: the email settles 800 → 700 ms (decision 0031)',
    file: 'src/machines/existingSubscriptionMachine.ts',
    from: 'export const EMAIL_SETTLE_MS = 800;',
    to: 'export const EMAIL_SETTLE_MS = 700;',
    test: 'test/model/existingSubscription.model.test.tsx',
  },
  {
    page: 'notice before a second purchase',
    rule: "the notice's words: 'You already have a subscription: manage it.' (decision 0031)",
    file: 'src/views/checkout/ExistingSubscriptionNotice.tsx',
    from: 'You already have a subscription: <Link',
    to: 'You have a subscription: <Link',
    test: 'test/model/existingSubscription.model.test.tsx',
  },
  {
    page: 'Mail screen',
    rule: 'a delay shortened: the search pause 300 → 250 ms',
    file: 'src/machines/mailMachine.ts',
    from: 'export const SEARCH_DELAY_MS = 300;',
    to: 'export const SEARCH_DELAY_MS = 250;',
    test: 'test/model/mail.model.test.tsx',
  },
  {
    page: 'Mail screen',
    rule: "the held banner: 'Mail is not being sent.' (decision 0019)",
    file: 'src/views/admin/AdminMail.tsx',
    from: '<strong>Mail is not being sent.</strong>',
    to: '<strong>Mail is held.</strong>',
    test: 'test/model/mail.model.test.tsx',
  },
  {
    page: 'every console screen',
    rule: "a 401 asks for the console's sign-in twice instead of once",
    file: 'src/machines/consoleSessionEnded.ts',
    from: "return { guard: 'sessionEnded', target, actions: 'emitUnauthorised' } as const;",
    to: "return { guard: 'sessionEnded', target, actions: ['emitUnauthorised', 'emitUnauthorised'] } as const;",
    test: 'test/model/mail.model.test.tsx',
  },
  {
    page: 'every console screen',
    rule: "a 401 never asks for the console's sign-in",
    file: 'src/machines/consoleSessionEnded.ts',
    from: "return { guard: 'sessionEnded', target, actions: 'emitUnauthorised' } as const;",
    to: "return { guard: 'sessionEnded', target, actions: [] } as const;",
    test: 'test/model/refund.model.test.tsx',
  },
  {
    page: 'Content screen',
    rule: "the refusals' field names swapped: practice ↔ quote (decision 0030)",
    file: 'src/machines/offerContentMachine.ts',
    from: "{ name: 'name', practice: 'practice', quote: 'quote' }",
    to: "{ name: 'name', practice: 'quote', quote: 'practice' }",
    test: 'test/model/offerContent.model.test.tsx',
  },
  {
    page: 'Content screen',
    rule: 'a count off by one: three testimonial rows → two (spec §1)',
    file: 'src/domain/offerContent.ts',
    from: 'export const MAX_TESTIMONIALS = 3;',
    to: 'export const MAX_TESTIMONIALS = 2;',
    test: 'test/model/offerContent.model.test.tsx',
  },
  {
    page: 'Referrers screen',
    rule: "'Copied' once the clipboard took the link (decision 0017)",
    file: 'src/views/admin/AdminReferrers.tsx',
    from: "? 'Copied' : 'Copy link'}\n",
    to: "? 'Copied!' : 'Copy link'}\n",
    test: 'test/model/referrers.model.test.tsx',
  },
  {
    page: 'refund',
    rule: "the question's words: '… and end the subscription now?' (decision 0024)",
    file: 'src/views/admin/RefundPanel.tsx',
    from: 'and end the subscription now? The buyer is mailed and loses access.',
    to: 'and cancel the subscription now? The buyer is mailed and loses access.',
    test: 'test/model/refund.model.test.tsx',
  },
  {
    page: 'refund',
    rule: 'a count off by one: the amount asked about one cent more than typed (decision 0024)',
    file: 'src/views/admin/RefundPanel.tsx',
    from: '{amountCents !== null\n                ? formatDollars(amountCents)',
    to: '{amountCents !== null\n                ? formatDollars(amountCents + 1)',
    test: 'test/model/refund.model.test.tsx',
  },
  {
    page: 'sign-in page',
    rule: "a refusal in one fixed message instead of the server's words (decision 0033)",
    file: 'src/views/signIn/SignInPage.tsx',
    from: '<ErrorText role="alert" id="sign-in-error">\n      {error}',
    to: '<ErrorText role="alert" id="sign-in-error">\n      {\'Sign-in failed.\'}',
    test: 'test/model/signIn.model.test.tsx',
  },
];

interface Outcome {
  failed: string[];
  status: number;
  seconds: number;
}

/** Runs vitest on `files`; the names of the failed tests from its JSON report. */
function runTests(files: string[]): Outcome {
  const dir = mkdtempSync(join(tmpdir(), 'breaks-'));
  const report = join(dir, 'report.json');
  const started = Date.now();
  const run = spawnSync('npx', ['vitest', 'run', ...files, '--reporter=json', `--outputFile=${report}`], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  const seconds = Math.round((Date.now() - started) / 1000);
  let failed: string[] = [];
  try {
    const json = JSON.parse(readFileSync(report, 'utf8')) as {
      testResults: {
        name: string;
        status: string;
        message?: string;
        assertionResults: { fullName: string; status: string; failureMessages?: string[] }[];
      }[];
    };
    failed = json.testResults.flatMap((file) => {
      // The test's name, then the first line of its failure: which rule it held the page to.
      const tests = file.assertionResults
        .filter((each) => each.status === 'failed')
        .map((each) => `${each.fullName}\n          ${(each.failureMessages?.[0] ?? '').split('\n')[0]!.slice(0, 200)}`);
      // A file that could not load has no test results, only its failure.
      return tests.length > 0 || file.status !== 'failed' ? tests : [`${file.name}: ${file.message ?? 'failed to load'}`];
    });
  } catch {
    failed = [`no report (vitest exited ${run.status}): ${run.stderr.slice(-500)}`];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { failed, status: run.status ?? 1, seconds };
}

/** The file being broken now and its text as committed, put back on any exit. */
let restoring: { path: string; text: string } | null = null;
function restore(): void {
  if (restoring) writeFileSync(restoring.path, restoring.text);
  restoring = null;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    restore();
    process.exit(130);
  });
}

function main(): number {
  const args = process.argv.slice(2);
  const only = args.flatMap((arg, index) => (args[index - 1] === '--only' ? [arg.toLowerCase()] : []));
  const breaks = BREAKS.filter(
    (each) => only.length === 0 || only.some((word) => `${each.page} ${each.rule}`.toLowerCase().includes(word)),
  );
  const files = [...new Set(breaks.map((each) => each.file))];
  const dirty = spawnSync('git', ['status', '--porcelain', '--', ...files], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  if (dirty) {
    console.error(`These files have uncommitted changes; commit or stash them first:\n${dirty}`);
    return 1;
  }
  if (!args.includes('--no-baseline')) {
    const tests = [...new Set(breaks.map((each) => each.test))];
    const baseline = runTests(tests);
    console.log(`baseline: ${tests.length} test files unbroken, ${baseline.seconds} s`);
    if (baseline.status !== 0) {
      console.error(`The tests fail without a break:\n  ${baseline.failed.join('\n  ')}`);
      return 1;
    }
  }
  let missed = 0;
  for (const each of breaks) {
    const path = join(ROOT, each.file);
    const text = readFileSync(path, 'utf8');
    const found = text.split(each.from).length - 1;
    if (found !== 1) {
      console.log(`NOT APPLIED  ${each.page}: ${each.rule}: its text is in ${each.file} ${found} times, not once`);
      missed++;
      continue;
    }
    restoring = { path, text };
    let outcome: Outcome;
    try {
      writeFileSync(
        path,
        text.replace(each.from, () => each.to),
      );
      outcome = runTests([each.test]);
    } finally {
      restore();
    }
    const caught = outcome.status !== 0 && outcome.failed.length > 0;
    if (!caught) missed++;
    console.log(
      `${caught ? 'CAUGHT' : 'MISSED'}  ${each.page}: ${each.rule} (${outcome.seconds} s)\n        ${
        caught ? `${outcome.failed.length} failed in ${each.test}, first: ${outcome.failed[0]}` : `${each.test} passed`
      }`,
    );
  }
  console.log(`${breaks.length - missed} of ${breaks.length} breaks caught`);
  return missed === 0 ? 0 : 1;
}

process.exitCode = main();
