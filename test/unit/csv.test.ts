import { describe, expect, it } from 'vitest';
import { csvOf, usd } from '../../server/http/csv';

describe('CSV downloads', () => {
  it('write money as dollars a spreadsheet adds up, a reversal’s minus sign too', () => {
    expect(
      csvOf([
        ['kind', 'commission_usd'],
        ['earned', usd(20_000)],
        ['reversed', usd(-20_000)],
        ['cents', usd(1_005)],
      ]),
    ).toBe('kind,commission_usd\nearned,200.00\nreversed,-200.00\ncents,10.05\n');
  });

  it('never let text run as a formula, and leave other numbers as they are', () => {
    expect(csvOf([['=HYPERLINK("x")', '-2+3', '+1', '@SUM(A1)', 4, -4]])).toBe(`"'=HYPERLINK(""x"")",'-2+3,'+1,'@SUM(A1),4,-4\n`);
  });
});
