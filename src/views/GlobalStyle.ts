import { createGlobalStyle } from 'styled-components';
import { colors } from './theme';

/** Page-wide resets and typography. */
export const GlobalStyle = createGlobalStyle`
  *, *::before, *::after { box-sizing: border-box; }
  html { scroll-behavior: smooth; }
  body {
    margin: 0;
    font-family: 'Inter', system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
    color: ${colors.text};
    background: ${colors.page};
    line-height: 1.5;
    -webkit-font-smoothing: antialiased;
  }
  h1, h2, h3, h4 { color: ${colors.ink}; line-height: 1.2; margin: 0; }
  p { margin: 0; }
  button, input { font: inherit; }
  a { color: ${colors.brand}; }
  :focus-visible { outline: 3px solid ${colors.brand}; outline-offset: 2px; }
  @media (prefers-reduced-motion: reduce) {
    html { scroll-behavior: auto; }
  }
`;
