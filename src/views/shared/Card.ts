import styled from 'styled-components';
import { colors, media, radii, shadows } from '../theme';

/** A white panel with a soft shadow: the building block of the checkout's sections. */
export const Card = styled.section`
  background: ${colors.surface};
  border: 1px solid ${colors.border};
  border-radius: ${radii.large};
  box-shadow: ${shadows.card};
  padding: 24px;

  ${media.narrow} {
    padding: 20px;
  }
`;

/** A card's heading. */
export const CardTitle = styled.h2`
  font-size: 1.25rem;
  margin-bottom: 16px;
`;
