/** Colours, spacing and breakpoints shared by the views (styled-components). */

export const colors = {
  ink: '#0f172a',
  text: '#334155',
  muted: '#64748b',
  border: '#e2e8f0',
  surface: '#ffffff',
  page: '#f8fafc',
  brand: '#1d4ed8',
  brandDark: '#1e3a8a',
  brandSoft: '#eff6ff',
  accent: '#f59e0b',
  cta: '#16a34a',
  ctaDark: '#15803d',
  success: '#16a34a',
  successSoft: '#dcfce7',
  danger: '#dc2626',
  dangerSoft: '#fef2f2',
  warning: '#ea580c',
  warningSoft: '#fff7ed',
} as const;

export const radii = { small: '6px', medium: '10px', large: '16px', pill: '999px' } as const;

export const shadows = {
  card: '0 1px 3px rgba(15, 23, 42, 0.08), 0 8px 24px rgba(15, 23, 42, 0.06)',
} as const;

/** Spec §9: the narrow-screen breakpoint is 768 px. */
const BREAKPOINT_PX = 768;

export const media = {
  /** Narrower than the breakpoint (phones). */
  narrow: `@media (max-width: ${BREAKPOINT_PX - 1}px)`,
  /** The breakpoint and wider. */
  wide: `@media (min-width: ${BREAKPOINT_PX}px)`,
} as const;
