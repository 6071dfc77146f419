/**
 * The rules the model tests hold each page to, written from their sources (the spec, a decision, the console's
 * brief) and not read from the statecharts under test, as specToasts.ts is for the checkout: a timing, what a
 * refusal or a failure says, a notice's words, a count. A statechart or view that drifts from one (a message
 * swapped, a delay shortened, a row too few) fails its page's model test. docs/testing.md lists them.
 */

/** The words of a call the server could not answer (status 0), by the client that made it. */
export const UNREACHABLE = {
  console: 'The console could not reach the server. Please try again.',
  signIn: 'We could not reach the server. Please try again.',
} as const;

/**
 * How the browser reads (spec §9 "3 retries with exponential backoff up to 30 s, cache retention 5 minutes";
 * docs/decisions/0051): a read that failed on the network (status 0) or with a 5xx is asked again after each of
 * these waits before the page hears of it; a 4xx reaches the page at once.
 */
export const READS = {
  retryDelaysMs: [1000, 2000, 4000],
  /** How long a cached answer (the public configuration, the offer's content) is reused, ms. */
  cacheRetentionMs: 5 * 60_000,
} as const;

/** The checkout's notice before a second purchase (docs/decisions/0031). */
export const EXISTING_SUBSCRIPTION = {
  /** The email must stay unchanged this long before the one check, ms. */
  settleMs: 800,
  notice: 'You already have a subscription: manage it.',
  manageLink: { name: 'manage it', href: '/account' },
} as const;

/** The console's Mail screen (docs/decisions/0018, 0019: the outbox, searched by recipient as the owner types). */
export const MAIL = {
  /** The pause after the last key before the list is asked for, ms. */
  searchPauseMs: 300,
  heldBanner: 'Mail is not being sent.',
  none: 'No mail yet.',
  noMatch: (search: string) => `No mail to a recipient matching "${search}".`,
  /** Only these can be sent again (a sent mail is never sent twice). */
  resendable: ['held', 'failed'],
  resend: 'Re-send',
  sending: 'Sending…',
} as const;

/** The console's Content screen (docs/decisions/0030; spec §1: testimonials from three named practitioners). */
export const CONTENT = {
  testimonials: 3,
  missing: {
    name: "Enter the practitioner's name, or empty the row.",
    practice: "Enter the practitioner's practice, or empty the row.",
    quote: "Enter the practitioner's quote, or empty the row.",
  },
  guaranteeMissing: "Enter the guarantee's text.",
  saved: 'Saved: the offer page shows it now.',
} as const;

/** The console's Referrers screen (docs/decisions/0017, 0018: a referrer's name is stored without "Dr."). */
export const REFERRERS = {
  copied: 'Copied',
  copy: 'Copy link',
  /** The name as the owner may type it, and as it must be sent. */
  typedName: 'Dr. Mark Lee ',
  sentName: 'Mark Lee',
} as const;

/**
 * The console's "Add a referrer" form (docs/decisions/0017): each field refused by name before anything is sent, and
 * the link held to what the server takes (src/contract/admin.ts: 2 to 40 characters of SLUG_PATTERN).
 */
export const REFERRER_FORM = {
  missing: {
    displayName: "Enter the name after 'Dr.', e.g. Jane Doe.",
    slug: 'Enter the link, e.g. jane-doe.',
    shortLabel: 'Enter the short label, e.g. dr-jane-doe.',
    quote: 'Enter the quote the offer shows.',
  },
  badSlug: 'Use 2 to 40 lower-case letters, digits and single dashes, e.g. jane-doe.',
  slugLength: { min: 2, max: 40 },
} as const;

/** The sign-in page (the OpenID Provider's sign-in, docs/decisions/0033, 0039). */
export const SIGN_IN = {
  heading: 'Sign in to your training',
  forgotHeading: 'Forgot your password?',
  signingIn: 'Signing in…',
} as const;

/**
 * The console's refund of one order (docs/decisions/0024: the owner is asked once more, the subscription ends;
 * 0042: a retry of the same amount keeps its request key, another amount is a new refund).
 */
export const REFUND = {
  question: (amount: string) => `Refund ${amount} and end the subscription now? The buyer is mailed and loses access.`,
  /** The amount named in the question when the owner leaves the field empty within the guarantee. */
  everything: 'everything paid',
  refund: 'Refund…',
  confirm: 'Refund and end the subscription',
  abandon: 'Keep the subscription',
  refunding: 'Refunding…',
} as const;

/**
 * One order in the console: each action the owner runs is confirmed in words once the server has done it, naming the
 * buyer's email (the console's brief: "each confirmed in words"; decision 0024 for the refund).
 */
export const CONSOLE_ORDER = {
  done: {
    resend_confirmation: (email: string) => `The confirmation mail is on its way to ${email} again.`,
    send_sign_in_link: (email: string) => `A sign-in link to the manage page is on its way to ${email}.`,
    cancel_at_period_end: 'The subscription will end at the end of the paid period; the buyer is mailed.',
    cancel_now: 'The subscription has ended now.',
  },
  refunded: 'The refund is made and the subscription has ended; the buyer is mailed.',
} as const;

/** The checkout's payment form before it can take a card (spec §2: 'Loading payment form...'). */
export const PAYMENT_FORM = {
  loading: 'Loading payment form...',
  /** In place of the form when the server could not be reached for its configuration (the product's words). */
  configUnreachable: 'Failed to load checkout configuration',
} as const;

/**
 * The console's Tax screen (docs/decisions/0074: the report for filing, per state and month; amounts in dollars;
 * a CSV of the same months).
 */
export const TAX = {
  none: (from: string, to: string) => `No taxed payment or refund from ${from} to ${to}: nothing to file for these months.`,
  byMonth: (from: string, to: string) => `Tax by state and month, ${from} to ${to}`,
  byState: (from: string, to: string) => `Tax by state, ${from} to ${to}`,
  csvLink: 'Download the report as CSV',
  csvHref: (from: string, to: string) => `/api/admin/tax.csv?from=${from}&to=${to}`,
  tryAgain: 'Try again',
} as const;

/**
 * The new password page's answers to a submitted password (docs/decisions/0039): a 400 is the password's rule,
 * under the field; any other 4xx is the link (unknown, expired, used): the page says it cannot be used and offers a
 * new one; anything else (the network, a 5xx) keeps the form, with the failure above the button. A new submission
 * clears the last refusal.
 */
export const NEW_PASSWORD = {
  passwordRefused: (status: number) => status === 400,
  linkRefused: (status: number) => status > 400 && status < 500,
  formHeading: 'Set a new password',
  unusableHeading: 'This link cannot be used',
} as const;

/**
 * The invitee's page (/join; docs/decisions/0032): a claim the server refuses (a 4xx: the link expired, was replaced
 * or withdrawn, the seat already claimed) says the invitation cannot be used, in the server's words; a failure to
 * reach it (the network, a 5xx) keeps the invitation, with why above the button. A copy button's toast names what
 * it copied.
 */
export const JOIN = {
  linkRefused: (status: number) => status >= 400 && status < 500,
  invitedHeading: (practiceName: string) => `Join ${practiceName}`,
  unusableHeading: 'This invitation cannot be used',
  copied: { email: 'Email copied to clipboard', password: 'Password copied to clipboard' },
} as const;
