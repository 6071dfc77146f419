/**
 * The CSV downloads, one way: `escape_formulas`, so a text cell cannot run as a formula (OWASP, "CSV Injection"),
 * while a money cell, given in cents, stays a number in dollars ("-200.00", never "'-200.00").
 */
import { stringify, type CastingContext } from 'csv-stringify/sync';

class UsdCell {
  constructor(readonly cents: number) {}
}

export const usd = (cents: number) => new UsdCell(cents);

type Cell = string | number | null | undefined | UsdCell;

export function csvOf(rows: Cell[][]): string {
  // A number, so escape_formulas leaves its minus sign alone.
  const cells = rows.map((row) => row.map((cell) => (cell instanceof UsdCell ? cell.cents : cell)));
  return stringify(cells, {
    escape_formulas: true,
    cast: { number: (value, context) => (isMoney(rows, context) ? (value / 100).toFixed(2) : String(value)) },
  });
}

function isMoney(rows: Cell[][], context: CastingContext): boolean {
  return rows[context.records]?.[context.index] instanceof UsdCell;
}

export const csvHeaders = (filename: string) => ({
  'Content-Type': 'text/csv; charset=utf-8',
  'Content-Disposition': `attachment; filename="${filename}"`,
});
