/** The pages of spec §2, by path: the router draws them, and the server answers 200 for them and 404 for any other. */
export const PAGE_PATHS = {
  checkout: '/',
  index: '/index',
  paymentSuccess: '/payment-success',
  /** The buyer's manage page. */
  account: '/account',
  /** The referrer's own page. */
  partner: '/partner',
  /** An invitee accepts a seat on the buyer's team. */
  join: '/join',
  /** The owner's console; its own pages are under it (src/views/admin/AdminPage.tsx). */
  admin: '/admin',
  /** The training platform's sign-in (the OpenID Provider's login page). */
  signIn: '/sign-in',
  /** A team member sets a new password with their mail's link (docs/decisions/0039). */
  newPassword: '/sign-in/new-password',
} as const;

/** True for a path the SPA draws a page for (any other gets its 404 page). */
export function isPagePath(path: string): boolean {
  return (Object.values(PAGE_PATHS) as string[]).includes(path) || path.startsWith(`${PAGE_PATHS.admin}/`);
}

/** `?a=1&b=2` for the set values of `query`, or '': the query of a console page or of a CSV the console links to. */
export function queryString(query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}
