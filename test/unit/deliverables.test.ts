import { describe, expect, it } from 'vitest';
import { benefitPhrases } from '../../src/content/offer';
import { deliverableForSeat } from '../../src/domain/deliverables';

describe('deliverableForSeat (spec §2, §9)', () => {
  it('has 25 phrases', () => {
    expect(benefitPhrases).toHaveLength(25);
  });

  it('cycles by seat number', () => {
    expect(deliverableForSeat(1, benefitPhrases)).toBe(benefitPhrases[0]);
    expect(deliverableForSeat(25, benefitPhrases)).toBe(benefitPhrases[24]);
    expect(deliverableForSeat(26, benefitPhrases)).toBe(benefitPhrases[0]);
    expect(deliverableForSeat(52, benefitPhrases)).toBe(benefitPhrases[1]);
  });

  it('refuses an empty list and seat 0', () => {
    expect(() => deliverableForSeat(1, [])).toThrow(RangeError);
    expect(() => deliverableForSeat(0, benefitPhrases)).toThrow(RangeError);
  });
});
