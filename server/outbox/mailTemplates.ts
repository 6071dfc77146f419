/**
 * Every mail, as text and HTML. Money arrives in cents, shown in dollars. No mail ever carries a password: the
 * buyer's was shown once.
 */
import { formatDollars } from '../../src/domain/pricing';
import { brand, PRODUCT_NAME } from '../../src/domain/product';
import { REFUND_GUARANTEE_DAYS } from '../../src/domain/refunds';
import { taxLabelOf } from '../../src/domain/tax';
import { practiceName } from '../../src/domain/team';
import { escapeHtml } from '../http/escapeHtml';

interface MailContext {
  buyer: { name: string; email: string };
  seats: number;
  /** Before tax, in cents. */
  monthlyTotalCents: number;
  /** The monthly tax at the seats now (the first invoice's until a seat change), in cents; 0 and null untaxed. */
  tax: { cents: number; state: string | null };
  payload: Record<string, string | number | null>;
  links: { manage: string; agreement: string; join?: string; team?: string; newPassword?: string };
  /** TRAINING_PLATFORM_URL, or null. */
  trainingPlatformUrl: string | null;
}

interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const dateOf = (iso: unknown) =>
  typeof iso === 'string' ? new Date(iso).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' }) : 'the end of the period';

const seatsText = (seats: number) => `${seats} ${seats === 1 ? 'seat' : 'seats'}`;

type Block = string | [label: string, url: string];

export function compose(subject: string, greetingName: string, blocks: Block[]): RenderedMail {
  const hello = `Hello ${greetingName},`;
  const footer = `${brand.name} · ${PRODUCT_NAME}`;
  const text = [hello, ...blocks.map((block) => (typeof block === 'string' ? block : `${block[0]}: ${block[1]}`)), footer].join('\n\n');
  const html = [
    `<p>${escapeHtml(hello)}</p>`,
    ...blocks.map((block) =>
      typeof block === 'string' ? `<p>${escapeHtml(block)}</p>` : `<p><a href="${escapeHtml(block[1])}">${escapeHtml(block[0])}</a></p>`,
    ),
    `<p style="color:#64748b">${escapeHtml(footer)}</p>`,
  ].join('\n');
  return { subject, text, html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a">${html}</body></html>` };
}

function teamBlocks(free: number, team: string): Block[] {
  if (free <= 0) return [];
  return [
    `You have ${seatsText(free)} waiting to be assigned: invite your team, and each gets a login of their own.`,
    ['Invite your team', team],
  ];
}

/**
 * An amount with tax in it on lines of its own (seats, the state's tax, total), as the summary showed them before the
 * charge (docs/decisions/0071); `per` is '/month' or '' for one charge. None when untaxed.
 */
function taxedBlocks(seatsCents: number, tax: { cents: number; state: string | null }, per: string, total = 'Total charged'): Block[] {
  if (tax.cents <= 0) return [];
  const taxLabel = taxLabelOf(tax.state);
  return [
    `Seats: ${formatDollars(seatsCents)}${per}`,
    `${taxLabel}: ${formatDollars(tax.cents)}${per}`,
    `${total}: ${formatDollars(seatsCents + tax.cents)}${per}`,
  ];
}

/**
 * The confirmation mail's opening: a taxed order's amounts on lines of their own, an untaxed one in one sentence.
 */
function orderBlocks(seats: number, monthlyTotalCents: number, tax: MailContext['tax']): Block[] {
  const order = `${seatsText(seats)} of ${PRODUCT_NAME}`;
  if (tax.cents <= 0) return [`Thank you for your order: ${order}, ${formatDollars(monthlyTotalCents)}/month, billed monthly.`];
  return [`Thank you for your order: ${order}, billed monthly.`, ...taxedBlocks(monthlyTotalCents, tax, '/month')];
}

/**
 * The tax of the amount an event's mail states (its payload's `taxCents`, in `amountCents`), in the order's state;
 * 0 for a row written without it.
 */
function payloadTax(payload: MailContext['payload'], tax: MailContext['tax']): { cents: number; state: string | null } {
  const cents = Number(payload.taxCents ?? 0);
  return { cents: Number.isInteger(cents) && cents > 0 ? cents : 0, state: tax.state };
}

/** An amount that includes tax (`amountCents`) as its own lines: the seats' part, the tax, the total. */
function chargeBlocks(payload: MailContext['payload'], tax: MailContext['tax'], total?: string): Block[] {
  const charged = payloadTax(payload, tax);
  return taxedBlocks(Number(payload.amountCents) - charged.cents, charged, '', total);
}

function signInBlocks(trainingPlatformUrl: string | null): Block[] {
  const where = 'After the agreement, you sign in to the training on the training platform, with your login email and password.';
  return trainingPlatformUrl ? [where, ['Go to the training platform', trainingPlatformUrl]] : [where];
}

const TEMPLATES: Record<string, (context: MailContext) => RenderedMail> = {
  order_confirmation: ({ buyer, seats, monthlyTotalCents, tax, payload, links, trainingPlatformUrl }) =>
    compose(`Your ${brand.name} subscription is active`, buyer.name, [
      ...orderBlocks(seats, monthlyTotalCents, tax),
      `Your login email is ${buyer.email}. Your password was shown once after payment; if you did not keep it, get new login credentials on your manage page.`,
      'Next step: sign your training agreement.',
      ['Sign the training agreement', links.agreement],
      ...signInBlocks(trainingPlatformUrl),
      'See your subscription, change seats, update your card or cancel in one click:',
      ['Manage your subscription', links.manage],
      ...teamBlocks(Number(payload.freeSeats ?? 0), links.team ?? links.manage),
    ]),
  renewal_receipt: ({ buyer, seats, tax, payload, links }) =>
    compose(`Receipt: ${brand.name}, ${formatDollars(Number(payload.amountCents))}`, buyer.name, [
      `We charged ${formatDollars(Number(payload.amountCents))} for another month of ${PRODUCT_NAME} (${seatsText(seats)}).`,
      ...chargeBlocks(payload, tax),
      ...(payload.recovered ? ['Your subscription is active again. Thank you for updating your payment.'] : []),
      ['Manage your subscription', links.manage],
    ]),
  proration_receipt: ({ buyer, tax, payload, links }) =>
    compose(`Receipt: ${brand.name}, ${formatDollars(Number(payload.amountCents))}`, buyer.name, [
      `We charged ${formatDollars(Number(payload.amountCents))} for your new seats for the rest of this month (${seatsText(Number(payload.seats))} now).`,
      ...chargeBlocks(payload, tax),
      'From your next renewal the monthly total covers every seat.',
      ['Manage your subscription', links.manage],
    ]),
  payment_failed: ({ buyer, tax, payload, links }) =>
    compose(`Action needed: your ${brand.name} payment failed`, buyer.name, [
      `We could not charge ${formatDollars(Number(payload.amountCents))} for your ${PRODUCT_NAME} subscription. Your subscription is past due.`,
      ...chargeBlocks(payload, tax, 'Total due'),
      'Please update your card; we will charge it again right away.',
      ['Update your card', links.manage],
    ]),
  seats_changed: ({ buyer, tax, payload, links }) => {
    // The payload's amount is the new seats' monthly amount before tax; its monthly tax beside it.
    const monthlyTax = payloadTax(payload, tax);
    const monthly = Number(payload.amountCents) + monthlyTax.cents;
    return compose(`Your ${brand.name} seats changed`, buyer.name, [
      `Your subscription changed from ${seatsText(Number(payload.from))} to ${seatsText(Number(payload.to))}: ${formatDollars(monthly)}/month from now on.`,
      ...taxedBlocks(Number(payload.amountCents), monthlyTax, '/month'),
      ['Manage your subscription', links.manage],
    ]);
  },
  cancellation_confirmed: ({ buyer, payload, links }) =>
    compose(`Your ${brand.name} subscription is cancelled`, buyer.name, [
      `Your subscription is cancelled and ends on ${dateOf(payload.cancelAt)}. You keep access until then and will not be charged again.`,
      'Changed your mind? You can undo the cancellation until that day:',
      ['Manage your subscription', links.manage],
    ]),
  account_link: ({ buyer, links }) =>
    compose(`Your link to manage your ${brand.name} subscription`, buyer.name, [
      'Here is the link you asked for. It works once, for a short time.',
      ['Manage your subscription', links.manage],
      'If you did not ask for it, you can ignore this mail.',
    ]),
  refund_issued: ({ buyer, tax, payload }) =>
    compose(`Your ${brand.name} refund`, buyer.name, [
      `We refunded ${formatDollars(Number(payload.amountCents))} to your card. It usually shows on your statement within 5 to 10 business days.`,
      // A taxed payment's refund returns its tax share (docs/decisions/0074): split as the charge was.
      ...chargeBlocks(payload, tax, 'Total refunded'),
      payload.subscription === 'ended'
        ? 'Your subscription has ended and you will not be charged again.'
        : 'Your subscription continues as before.',
      'Questions? Reply to this mail.',
    ]),
  refund_asked: ({ buyer, payload, links }) =>
    compose(`We have your refund request: ${formatDollars(Number(payload.amountCents))}`, buyer.name, [
      `You asked for your money back under the ${REFUND_GUARANTEE_DAYS}-day guarantee: ${formatDollars(Number(payload.amountCents))}, everything you paid that was not refunded yet.`,
      `${brand.name} refunds it to the card you paid with, and your subscription then ends at once. You get a mail when the refund is made; it usually shows on your statement within 5 to 10 business days after that.`,
      'Your subscription is cancelled meanwhile: you will not be charged again.',
      ['See your subscription', links.manage],
    ]),
  seat_invitation: ({ buyer, payload, links, trainingPlatformUrl }) =>
    compose(`${buyer.name} invited you to ${PRODUCT_NAME}`, String(payload.seatName), [
      `${buyer.name} (${buyer.email}) has given you a seat on the team of ${practiceName(buyer.name)} for ${PRODUCT_NAME}, ${brand.name}’s monthly AI training for chiropractic teams.`,
      'Accept it to get your own login, then sign your training agreement. The link works once, for 7 days:',
      ['Accept your seat', links.join ?? ''],
      ...signInBlocks(trainingPlatformUrl),
      'If you do not know the sender, ignore this mail: nothing happens without you.',
    ]),
  member_new_password: ({ payload, links }) =>
    compose(`Set a new password for ${PRODUCT_NAME}`, String(payload.seatName), [
      'Someone, hopefully you, asked to set a new password for your training login. Choose one here; the link works once, for one hour:',
      ['Set a new password', links.newPassword ?? ''],
      'Setting it signs you out of the training platform everywhere; then sign in with the new password.',
      'If you did not ask for it, ignore this mail: your password stays as it is.',
    ]),
  seats_suspended: ({ buyer, seats, payload, links }) =>
    compose(`Some of your team's ${brand.name} seats are on hold`, buyer.name, [
      `Your subscription now has ${seatsText(seats)}, fewer than the people on your team, so the latest invited are on hold: ${String(payload.names)}. They cannot sign in until you add seats again.`,
      ['Manage your team', links.team ?? links.manage],
    ]),
  cancellation_undone: ({ buyer, links }) =>
    compose(`Your ${brand.name} subscription continues`, buyer.name, [
      'You undid your cancellation: your subscription continues and renews as before.',
      ['Manage your subscription', links.manage],
    ]),
};

/** @throws Error for a topic with no template (a row written by a newer version). */
export function renderMail(topic: string, context: MailContext): RenderedMail {
  const template = TEMPLATES[topic];
  if (!template) throw new Error(`No mail template '${topic}'`);
  return template(context);
}
