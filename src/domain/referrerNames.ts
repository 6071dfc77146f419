/**
 * How a referrer's name and link are written. The console asks for the name "after 'Dr.'", since the
 * page writes 'For Friends of Dr. {name} Only': a leading "Dr." typed anyway is dropped, on the console's form and
 * by the server, so the page never reads "Dr. Dr. Mark Lee". The link's slug is suggested from the name.
 */

/** A leading "Dr", "Dr." or "DR." followed by a space (any case), as many times as typed. "Drew" stays. */
const LEADING_DR = /^(?:dr\.?(?:\s+|$)|dr\.(?=\S))+/i;

/** `name` trimmed, without a leading "Dr."/"Dr " and with inner runs of spaces made one: "Dr. Mark  Lee" → "Mark Lee". */
export function referrerDisplayName(name: string): string {
  return name.trim().replace(/\s+/g, ' ').replace(LEADING_DR, '').trim();
}

/** Longest slug (src/contract/admin.ts SLUG_PATTERN). */
const SLUG_MAX = 40;

/**
 * The link suggested for `name`: the display name's letters and digits, accents dropped, lower-cased, words joined
 * by single dashes, at most 40 characters: "Dr. José Núñez-Ortiz" → "jose-nunez-ortiz". '' when nothing is left.
 */
export function slugFromName(name: string): string {
  return referrerDisplayName(name)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, SLUG_MAX)
    .replace(/^-+|-+$/g, '');
}
