/** Stripe's Payment Element palette, so the sandbox form looks like the real one. */
export const elementColors = {
  text: '#30313d',
  label: '#30313d',
  border: '#e6e6e6',
  focus: '#0570de',
  danger: '#df1b41',
  placeholder: '#87909f',
} as const;
