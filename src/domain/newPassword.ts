/**
 * The rules for a password a person chooses (a member's new password, docs/decisions/0039), shared by the page
 * and the server: NIST SP 800-63B-4 §3.1.1.2 and OWASP's Authentication Cheat Sheet. At least 15 characters (the
 * password is the only factor), at most 128, any characters (spaces and emoji too), no composition rules (no
 * "one digit, one capital"), and not a value the person's context gives away: their email or its name part, one
 * character repeated, or a few of the long passwords breach lists are full of.
 */

/** Fewest characters (Unicode code points) of a chosen password: NIST SP 800-63B-4 for single-factor passwords. */
const NEW_PASSWORD_MIN = 15;
/** Most characters: NIST asks to allow at least 64; 128 leaves passphrases room while bounding the hash's input. */
export const NEW_PASSWORD_MAX = 128;
/** How long a "set a new password" link works, in minutes, from its mail. */
export const NEW_PASSWORD_LINK_MINUTES = 60;

/** What the page shows under the field before the person types (the rule in words). */
export const NEW_PASSWORD_HINT = `At least ${NEW_PASSWORD_MIN} characters. A few words you will remember make a good one.`;

/** Long passwords that breach corpora hold again and again (lower case, compared without spaces). */
const COMMON = new Set([
  '123456789012345',
  '1234567890123456',
  'qwertyuiopasdfgh',
  'qwertyuiopasdfghjkl',
  'passwordpassword',
  'password12345678',
  'password123456789',
  'iloveyouiloveyou',
  'abcdefghijklmnop',
  'abcdefghijklmnopqrstuvwxyz',
  'chiropractictraining',
]);

/**
 * Why `password` cannot be the new password of the person with `email`, in words for the page, or null when it
 * can. Length is counted in code points, so an emoji is one character, as the person sees it.
 */
export function newPasswordProblem(password: string, email: string): string | null {
  const length = [...password].length;
  if (length < NEW_PASSWORD_MIN) return `Please use at least ${NEW_PASSWORD_MIN} characters (this one has ${length}).`;
  if (length > NEW_PASSWORD_MAX) return `Please use at most ${NEW_PASSWORD_MAX} characters.`;
  const plain = password.toLowerCase().replace(/\s+/g, '');
  const address = email.trim().toLowerCase();
  const name = address.split('@')[0] ?? '';
  if (plain === address.replace(/\s+/g, '') || plain === name || (address !== '' && plain.includes(address)))
    return 'Please choose a password that is not your email address.';
  if (new Set(plain).size <= 2 || COMMON.has(plain))
    return 'This password is one of the first an attacker would try. Please choose another.';
  return null;
}
