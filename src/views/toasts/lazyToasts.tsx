/**
 * The notifications' code (react-hot-toast, the page's toaster and showToast) is fetched with the first toast,
 * not with the page (docs/decisions/0027-islands.md): no page shows one before the buyer acts or a call fails.
 */
import { useSyncExternalStore } from 'react';
import type { ToastMessage } from '../../machines/toasts';

const loadToasts = () =>
  Promise.all([import('./AppToaster'), import('./showToast')]).then(([toaster, show]) => ({
    AppToaster: toaster.AppToaster,
    showToast: show.showToast,
  }));
type Toasts = Awaited<ReturnType<typeof loadToasts>>;

/** Set once the code is here. */
let toasts: Toasts | undefined;
let loading: Promise<Toasts> | undefined;
const listeners = new Set<() => void>();

/** Fetches the notifications' code now, if it is not already here; resolves once it is (tests call it up front). */
export function preloadToasts(): Promise<Toasts> {
  loading ??= loadToasts().then((loaded) => {
    toasts = loaded;
    listeners.forEach((listener) => listener());
    return loaded;
  });
  return loading;
}

/** Shows a toast the machines emitted (src/views/toasts/showToast.tsx): at once when the code is here, else once it is, in order. */
export function notify(message: ToastMessage): void {
  if (toasts) toasts.showToast(message);
  else void preloadToasts().then((loaded) => loaded.showToast(message));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The page's notification area (src/views/toasts/AppToaster.tsx) once the first toast brought its code; nothing
 * before, also in the prerendered HTML, so the browser hydrates it as it is.
 */
export function LazyToaster() {
  const loaded = useSyncExternalStore(
    subscribe,
    () => toasts,
    () => undefined,
  );
  return loaded ? <loaded.AppToaster /> : null;
}
