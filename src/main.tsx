/** Browser entry: mounts the app with its global style and notification area. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { GlobalStyle } from './views/GlobalStyle';
import { AppToaster } from './views/toasts/AppToaster';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

createRoot(container).render(
  <StrictMode>
    <GlobalStyle />
    <App />
    <AppToaster />
  </StrictMode>,
);
