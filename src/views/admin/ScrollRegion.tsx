import type { ReactNode } from 'react';
import styled from 'styled-components';

/**
 * A table wider than a phone scrolls sideways in here; the region is focusable and named, so a keyboard can
 * scroll it (WCAG 2.1.1, axe's scrollable-region-focusable).
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Scroll role="region" aria-label={label} tabIndex={0}>
      {children}
    </Scroll>
  );
}

const Scroll = styled.div`
  overflow-x: auto;
`;
