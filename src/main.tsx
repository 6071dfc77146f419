/**
 * Browser entry: mounts the app with its global style and notification area. With `VITE_INSPECT=1` (development)
 * both statecharts stream to the Stately inspector, secrets redacted (src/browser/inspector.ts).
 */
import { StrictMode } from 'react';
import type { InspectionEvent, Observer } from 'xstate';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { GlobalStyle } from './views/GlobalStyle';
import { AppToaster } from './views/toasts/AppToaster';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

function mount(inspect?: Observer<InspectionEvent>) {
  createRoot(container!).render(
    <StrictMode>
      <GlobalStyle />
      <App checkout={{ inspect }} paymentSuccess={{ inspect }} />
      <AppToaster />
    </StrictMode>,
  );
}

if (import.meta.env.VITE_INSPECT === '1') {
  void import('./browser/inspector').then(({ startInspector }) => mount(startInspector()));
} else {
  mount();
}
