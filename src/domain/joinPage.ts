/**
 * The /join page as both sides agree on it (the page shows its invitation in its first paint). The build
 * renders the page twice with placeholders (src/prerender.tsx, scripts/prerender.ts): the invitation, and a link
 * that cannot be used; for each request the server looks the link up, fills the matching page in, HTML-escaped,
 * and writes the same answer as JSON into `<script id="join-answer">` (server/seats/routes.ts `joinPageAnswers`,
 * server/referrals/offerPage.ts); the page reads it once (src/content/joinAnswer.ts) and its statechart starts at
 * the invitation or the problem instead of asking the server again (src/machines/joinMachine.ts).
 */
import type { JoinInvitation } from '../contract/team';

/** What the server found for the page's link: the invitation, or why it cannot be used (words for the invitee). */
export type JoinAnswer = { invitation: JoinInvitation } | { problem: string };

/** The id of the `<script type="application/json">` element carrying the answer. */
export const JOIN_ANSWER_ELEMENT_ID = 'join-answer';

/** What the build renders in place of each field; plain ASCII that React's HTML escaping leaves as it is. */
export const JOIN_PLACEHOLDERS = {
  email: '__JOIN_EMAIL__',
  name: '__JOIN_NAME__',
  invitedBy: '__JOIN_INVITED_BY__',
  practiceName: '__JOIN_PRACTICE_NAME__',
  productName: '__JOIN_PRODUCT_NAME__',
  expiresAt: '__JOIN_EXPIRES_AT__',
  problem: '__JOIN_PROBLEM__',
} as const;

/** The two answers the build renders: the invitation's fields and the problem, each its placeholder. */
export const JOIN_ANSWER_PLACEHOLDERS = {
  invitation: {
    invitation: {
      email: JOIN_PLACEHOLDERS.email,
      name: JOIN_PLACEHOLDERS.name,
      invitedBy: JOIN_PLACEHOLDERS.invitedBy,
      practiceName: JOIN_PLACEHOLDERS.practiceName,
      productName: JOIN_PLACEHOLDERS.productName,
      expiresAt: JOIN_PLACEHOLDERS.expiresAt,
    },
  },
  problem: { problem: JOIN_PLACEHOLDERS.problem },
} as const satisfies Record<string, JoinAnswer>;

/** What the page says when it was opened without a token. */
export const NO_JOIN_TOKEN =
  'This page opens from the link in your invitation mail. Please use that link, or ask the person who invited you for a new one.';
