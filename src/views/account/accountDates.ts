/** A day as the manage page writes it: 'December 24, 2026' (UTC); '—' without one. */
export const day = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' }) : '—');
