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
  // Greens and reds dark enough for white text and for text on white (WCAG 2.2 AA, 4.5:1).
  cta: '#15803d',
  ctaDark: '#166534',
  success: '#15803d',
  successSoft: '#dcfce7',
  danger: '#b91c1c',
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
