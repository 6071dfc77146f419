/** The team's rules both sides share (issue 22, docs/decisions/0032-seat-rules.md). */

/** Days an invitation link works. */
export const INVITATION_LINK_DAYS = 7;

/** The practice an invitation names: the buyer's (the checkout asks no practice name). */
export const practiceName = (buyerName: string) => `${buyerName}’s practice`;
