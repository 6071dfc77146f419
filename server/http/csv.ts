/**
 * The CSV downloads (console, payouts, the referrer's ledger), one way: csv-stringify with `escape_formulas`, so a
 * text cell starting with = + - @ cannot run as a spreadsheet formula (OWASP, "CSV Injection"), while money stays a
 * number a spreadsheet adds up: a money cell is given in integer cents (`usd(cents)`) and written in dollars with
 * two decimals, a refund's "-200.00" as a number, never the text "'-200.00".
 */
import { stringify, type CastingContext } from 'csv-stringify/sync';

/** A money cell: integer cents, written as dollars with two decimals. */
class UsdCell {
  constructor(readonly cents: number) {}
}

/** Marks `cents` as a money cell. */
export const usd = (cents: number) => new UsdCell(cents);

type Cell = string | number | null | undefined | UsdCell;

/** Rows (the header first, if any) as CSV text. */
export function csvOf(rows: Cell[][]): string {
  // Money goes in as a number (so escape_formulas leaves its minus sign alone) and comes out in dollars.
  const cells = rows.map((row) => row.map((cell) => (cell instanceof UsdCell ? cell.cents : cell)));
  return stringify(cells, {
    escape_formulas: true,
    cast: { number: (value, context) => (isMoney(rows, context) ? (value / 100).toFixed(2) : String(value)) },
  });
}

/** Whether the cell csv-stringify is writing was given as money. */
function isMoney(rows: Cell[][], context: CastingContext): boolean {
  return rows[context.records]?.[context.index] instanceof UsdCell;
}

/** The headers of a CSV download named `filename`. */
export const csvHeaders = (filename: string) => ({
  'Content-Type': 'text/csv; charset=utf-8',
  'Content-Disposition': `attachment; filename="${filename}"`,
});
