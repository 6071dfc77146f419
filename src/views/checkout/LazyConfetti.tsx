import { useEffect, useState } from 'react';

/** The confetti's module (src/views/checkout/Confetti.tsx): fetched the first time a celebration begins. */
const loadConfetti = () => import('./Confetti');
type ConfettiModule = Awaited<ReturnType<typeof loadConfetti>>;

/** Set once the module is here; later celebrations draw it at once. */
let confettiModule: ConfettiModule | undefined;

/** Fetches the confetti's module now, if it is not already here; resolves once it is (tests call it up front). */
export async function preloadConfetti(): Promise<void> {
  confettiModule ??= await loadConfetti();
}

/**
 * The celebration's confetti, whose code the page loads only when first needed (docs/decisions/0027-islands.md):
 * nothing until its module is here, a frame or so on the first celebration, then the confetti.
 */
export function LazyConfetti() {
  const [loaded, setLoaded] = useState(confettiModule);
  useEffect(() => {
    if (loaded) return undefined;
    let mounted = true;
    void preloadConfetti().then(() => {
      if (mounted) setLoaded(confettiModule);
    });
    return () => {
      mounted = false;
    };
  }, [loaded]);
  return loaded ? <loaded.Confetti /> : null;
}
