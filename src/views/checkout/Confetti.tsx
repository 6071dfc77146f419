import type { CSSProperties } from 'react';
import styled, { keyframes } from 'styled-components';
import { CONFETTI_PIECES, TIMINGS } from '../../machines/checkoutTimings';

const PALETTE = ['#1d4ed8', '#16a34a', '#f59e0b', '#dc2626', '#9333ea', '#0891b2'];

const fall = keyframes`
  0% { transform: translate3d(0, -10vh, 0) rotate(0deg); opacity: 1; }
  85% { opacity: 1; }
  100% { transform: translate3d(var(--drift), 105vh, 0) rotate(var(--spin)); opacity: 0; }
`;

/** Where each piece starts and how it falls; spread evenly by index so the effect needs no randomness. */
function pieceStyle(index: number) {
  return {
    left: `${(index * 37) % 100}%`,
    background: PALETTE[index % PALETTE.length],
    animationDelay: `${(index % 10) * 0.12}s`,
    width: `${6 + (index % 3) * 2}px`,
    height: `${10 + (index % 4) * 2}px`,
    '--drift': `${((index * 53) % 120) - 60}px`,
    '--spin': `${360 + ((index * 97) % 720)}deg`,
  } as CSSProperties;
}

/** The celebration at exactly two seats: CONFETTI_PIECES pieces falling for as long as the machine celebrates. */
export function Confetti() {
  return (
    <Layer aria-hidden="true" data-testid="confetti">
      {Array.from({ length: CONFETTI_PIECES }, (_, index) => (
        <Piece key={index} style={pieceStyle(index)} />
      ))}
    </Layer>
  );
}

const Layer = styled.div`
  position: fixed;
  inset: 0;
  z-index: 900;
  overflow: hidden;
  pointer-events: none;
`;

const Piece = styled.span`
  position: absolute;
  top: 0;
  border-radius: 2px;
  animation: ${fall} ${TIMINGS.confetti / 1000 - 1}s ease-in forwards;

  @media (prefers-reduced-motion: reduce) {
    animation: none;
    display: none;
  }
`;
