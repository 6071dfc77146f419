/**
 * The Stately inspector for development (`VITE_INSPECT=1 npm run dev`): opens Stately's inspector window and
 * streams both statecharts to it. What leaves the page is redacted first: client secrets, the buyer's email, and
 * the issued password and hand-off token, wherever they sit in a context or an event.
 */
import { createBrowserInspector } from '@statelyai/inspect';
import type { InspectionEvent, Observer } from 'xstate';

/** Keys whose values never reach the inspector. */
const SECRET_KEYS = new Set(['clientSecret', 'email', 'password', 'token']);

/** A copy of `value` with every SECRET_KEYS value replaced by '[redacted]', at any depth. Functions and class instances are kept as they are. */
export function redactSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map(redactSecrets) as T;
  if (!value || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, SECRET_KEYS.has(key) && item != null ? '[redacted]' : redactSecrets(item)]),
  ) as T;
}

/** Starts the inspector; pass the observer as the actors' `inspect` option. */
export function startInspector(): Observer<InspectionEvent> {
  const inspector = createBrowserInspector({
    sanitizeContext: (context) => redactSecrets(context),
    sanitizeEvent: (event) => redactSecrets(event),
  });
  return inspector.inspect;
}
