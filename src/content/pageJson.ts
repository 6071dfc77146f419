/**
 * The JSON the server writes into a page as `<script id type="application/json">` (server/referrals/offerPage.ts):
 * the referrer, the owner's content, the join page's answer. Each reader checks its own fields.
 */

/** The object in element `id` of `document`; null when there is none, it does not parse, or it is not an object. */
export function readPageJson(document: Document, id: string): Record<string, unknown> | null {
  const text = document.getElementById(id)?.textContent;
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
