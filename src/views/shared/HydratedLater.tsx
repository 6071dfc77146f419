import { Suspense, type ReactNode } from 'react';

/**
 * A part of a prerendered page that nothing in the page's first moments needs (text, pictures, links): React
 * takes it over after the rest, in short slices, because a Suspense boundary that arrives in the server's HTML
 * is hydrated at offscreen priority (React's `mountDehydratedSuspenseComponent`). Taking over `/` is then not
 * one long task, while the seat selector, the summary and the payment form (outside any boundary) are live as
 * early as before. A click inside it before then is replayed once it is hydrated. It never suspends: a page
 * drawn afresh (no prerendered HTML) renders its children at once.
 */
export function HydratedLater({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>;
}
