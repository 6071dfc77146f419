/**
 * The offer's editable copy, in one place (spec §1, §2, §9). Change names and text here; no component
 * holds copy of its own except the spec's fixed strings. The testimonials and the guarantee's text are the owner's,
 * written in the console (src/domain/offerContent.ts, docs/decisions/0030).
 * The brand's name (src/domain/product.ts) and the sample referrer (src/domain/offerReferrer.ts) are there
 * because the server's mails and referrers use them too.
 */

/** The hero's headline (spec §2: "a headline about reclaiming 60+ hours monthly"). */
export const heroHeadline = 'Reclaim 60+ Hours Monthly With AI Systems Built For Chiropractic Practices';

/** The offer line, verbatim from spec §2. */
export const offerLine = 'Complete Your Order Now To Access The Realtime System Only $500/Month With Second Seat FREE (Save $6,000/Year)';

/** What's Included (spec §1). */
export const includedItems = [
  { title: 'Deep-Dive Technology Trainings', detail: 'Twice-monthly 90-minute deep-dive technology trainings' },
  { title: 'Weekly Live Build Calls', detail: 'Build your AI systems live with us every week' },
  { title: 'Bi-Weekly Office Hours', detail: 'Bring your questions every other week' },
  { title: 'Full Member Portal', detail: 'A full member portal with recordings and templates' },
  { title: 'AI Systems Library', detail: 'A customizable library of AI systems for your practice' },
  { title: 'Continuous Updates', detail: 'New systems and updates as the tools change' },
] as const;

/** The sign-up bonus (spec §1). */
export const bonus = {
  title: 'Sign-Up Bonus: Free 2-Hour Live Chiropractic AI Workshop',
  detail: 'Join a free 2-hour live chiropractic AI workshop when you sign up today.',
  cta: 'Get Started',
} as const;

/** FAQ (spec §9: prices, cancel by one email to staff, 30-day AI Challenge). */
export const faq = [
  {
    question: 'How much does it cost?',
    answer: 'The first seat is $500 per month. The second seat is free. Every further seat is $500 per month.',
  },
  {
    question: 'Is the second seat really free?',
    answer: 'Yes. Add a second team member at no cost for as long as you stay subscribed.',
  },
  {
    question: 'Can I add more seats later?',
    answer: 'Yes. Each seat after the second is $500 per month.',
  },
  {
    question: 'How do I cancel?',
    answer: 'Cancel any time with one email to our staff. There are no contracts.',
  },
  {
    question: 'What is the 30-day AI Challenge?',
    answer: 'Take the 30-day AI Challenge. If it is not for you, cancel within the first 30 days.',
  },
] as const;

/** Footer security badge labels (spec §1). */
export const securityBadges = ['256-bit SSL Encryption', 'Secure Payment', 'PCI Compliant'] as const;

/** What each security badge means, shown as its hint (spec §9 tooltips). */
export const securityBadgeHints: Record<(typeof securityBadges)[number], string> = {
  '256-bit SSL Encryption': 'Everything you send on this page travels over an encrypted connection.',
  'Secure Payment': 'Your card is checked by our payment provider; we never store its number.',
  'PCI Compliant': "Card payments are handled to the card industry's security standard (PCI DSS).",
};

/**
 * The 25 benefit phrases that the order summary cycles through by seat number (spec §2, §9).
 * The Deliverable column shows a phrase; the list itself is not shown anywhere else.
 */
export const benefitPhrases = [
  'AI front-desk assistant',
  'Automated patient recall',
  'SOAP note drafting',
  'Review request automation',
  'Insurance verification helper',
  'New-patient intake flow',
  'Missed-call text back',
  'Appointment reminder system',
  'Social media content engine',
  'Email newsletter writer',
  'Reactivation campaign builder',
  'Care plan explainer',
  'Team training assistant',
  'KPI dashboard summaries',
  'Referral thank-you workflow',
  'Website chat assistant',
  'Patient education library',
  'Workshop promotion kit',
  'Billing follow-up drafts',
  'Google Business profile posts',
  'Staff SOP generator',
  'Lead nurture sequences',
  'Exam findings summaries',
  'Video script writer',
  'Practice growth planner',
] as const;
