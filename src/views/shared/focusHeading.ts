/**
 * Focus on a page's heading, so a screen reader announces the page it arrived on (WCAG 2.4.3): a page's `h1`
 * takes `ref={focusOnMount}` and `tabIndex={-1}`; `useHeadingFocusOnRouteChange` does it for any page after the
 * address changes within the app.
 */
import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';

/** A ref callback: focuses the element when it is mounted (without scrolling the page). */
export function focusOnMount(element: HTMLElement | null): void {
  element?.focus({ preventScroll: true });
}

/** After every change of address within the app (not the first page load), focuses the new page's first `h1`. */
export function useHeadingFocusOnRouteChange(): void {
  const [location] = useLocation();
  const first = useRef(location);
  useEffect(() => {
    if (location === first.current) return;
    first.current = '';
    // The page renders first; a page still loading focuses its own heading when it is mounted (focusOnMount).
    const timer = window.setTimeout(() => {
      const heading = document.querySelector<HTMLElement>('main h1, h1');
      if (!heading || heading.contains(document.activeElement)) return;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
    }, 0);
    return () => window.clearTimeout(timer);
  }, [location]);
}
