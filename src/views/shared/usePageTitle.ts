import { useEffect } from 'react';

/** The product's name in every page title (index.html carries the checkout's). */
const SITE_TITLE = 'AI Training for Chiropractors';

/** Sets the document title to `page – SITE_TITLE` while the calling page is shown. */
export function usePageTitle(page: string): void {
  useEffect(() => {
    document.title = `${page} – ${SITE_TITLE}`;
  }, [page]);
}
