/**
 * The rules for a password a person chooses (src/domain/newPassword.ts, decision 0039; NIST SP 800-63B-4): length
 * in characters as the person sees them, no composition rules, not the email, not an obvious one.
 */
import { describe, expect, it } from 'vitest';
import { newPasswordProblem } from '../../src/domain/newPassword';

const EMAIL = 'Bo.Chen@example.com';

describe('a chosen password', () => {
  it('needs 15 to 128 characters, counting an emoji as one', () => {
    expect(newPasswordProblem('fourteen chars', EMAIL)).toBe('Please use at least 15 characters (this one has 14).');
    expect(newPasswordProblem('fifteen chars!!', EMAIL)).toBeNull();
    expect(newPasswordProblem('🐢'.repeat(7) + 'slowly!!', EMAIL)).toBeNull();
    expect(newPasswordProblem('🐢'.repeat(14), EMAIL)).toMatch(/this one has 14/);
    expect(newPasswordProblem('abc '.repeat(32), EMAIL)).toBeNull();
    expect(newPasswordProblem(`${'abc '.repeat(32)}d`, EMAIL)).toBe('Please use at most 128 characters.');
  });

  it('asks for no mix of kinds: lower-case words with spaces will do', () => {
    expect(newPasswordProblem('correct horse battery staple', EMAIL)).toBeNull();
  });

  it('refuses the email, in any case or spacing, and a password that holds it', () => {
    expect(newPasswordProblem('bo.chen@example.com', EMAIL)).toMatch(/not your email address/);
    expect(newPasswordProblem(' BO.CHEN@EXAMPLE.COM ', EMAIL)).toMatch(/not your email address/);
    expect(newPasswordProblem('my bo.chen@example.com login', EMAIL)).toMatch(/not your email address/);
  });

  it('refuses one or two characters repeated and the long passwords breach lists are full of', () => {
    expect(newPasswordProblem('aaaaaaaaaaaaaaaaaa', EMAIL)).toMatch(/first an attacker would try/);
    expect(newPasswordProblem('abababababababab', EMAIL)).toMatch(/first an attacker would try/);
    expect(newPasswordProblem('Password Password', EMAIL)).toMatch(/first an attacker would try/);
    expect(newPasswordProblem('123456789012345', EMAIL)).toMatch(/first an attacker would try/);
  });
});
