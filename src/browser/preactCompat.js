/**
 * What the browser's build imports as `react` (vite.config.ts, decision 0037): Preact's React-compatible layer,
 * plus React 19.2's `useEffectEvent`, which that layer does not have. JavaScript, as preact/compat's types
 * (`export =`) cannot be re-exported with `export *` from TypeScript; never imported by name.
 */
import { useCallback, useInsertionEffect, useRef } from 'preact/compat';

export * from 'preact/compat';
export { default } from 'preact/compat';

/**
 * A function that always calls the latest `handler` and keeps one identity, as React's `useEffectEvent`
 * (react.dev/reference/react/useEffectEvent): for effects that read current props without re-running.
 * @template {unknown[]} A
 * @template R
 * @param {(...args: A) => R} handler
 * @returns {(...args: A) => R}
 */
export function useEffectEvent(handler) {
  const latest = useRef(handler);
  useInsertionEffect(() => {
    latest.current = handler;
  });
  return useCallback((...args) => latest.current(...args), []);
}
