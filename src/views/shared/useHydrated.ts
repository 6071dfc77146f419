/**
 * False in the server's HTML and in the browser's first render over it (hydration), true once the page's code has
 * taken the page over: a control the server renders disabled until then, so a click before the code arrives is not
 * lost and a form cannot submit itself natively (with a password in its address). A state set by an effect, so
 * the first render in the browser is the server's HTML exactly.
 */
import { useEffect, useState } from 'react';

/** Whether the page's code has taken this component over. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  // The one render this causes is the point: the server's `false` first, then the browser's `true`.
  // eslint-disable-next-line react-hooks/set-state-in-effect -- a second render after hydration is what this hook is for
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
