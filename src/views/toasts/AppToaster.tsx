import { useEffect } from 'react';
import toast, { Toaster, useToasterStore } from 'react-hot-toast';
import { colors } from '../theme';

/** Spec §9: notifications auto-dismiss after 4000 ms, at most 3 visible. */
const TOAST_DURATION_MS = 4000;
const MAX_VISIBLE_TOASTS = 3;

/** Dismisses the oldest visible toasts beyond `limit` (react-hot-toast lists the newest first). */
function useVisibleToastLimit(limit: number): void {
  const { toasts } = useToasterStore();
  useEffect(() => {
    toasts
      .filter((item) => item.visible)
      .slice(limit)
      .forEach((item) => toast.dismiss(item.id));
  }, [toasts, limit]);
}

/** The page's notification area: react-hot-toast, 4 s, at most three; destructive toasts in red (announced as alerts by showToast). */
export function AppToaster() {
  useVisibleToastLimit(MAX_VISIBLE_TOASTS);
  return (
    <Toaster
      position="top-right"
      toastOptions={{
        duration: TOAST_DURATION_MS,
        style: { maxWidth: 420, textAlign: 'left' },
        success: { duration: TOAST_DURATION_MS, iconTheme: { primary: colors.success, secondary: '#fff' } },
        error: {
          duration: TOAST_DURATION_MS,
          style: { background: colors.danger, color: '#fff', maxWidth: 420, textAlign: 'left' },
          iconTheme: { primary: '#fff', secondary: colors.danger },
        },
      }}
    />
  );
}
