import styled from 'styled-components';
import { media } from '../theme';

/** A full-width band of the checkout page below the grid, centred at `$maxWidth` px (testimonials, FAQ). */
export const PageSection = styled.section<{ $maxWidth: number }>`
  max-width: ${({ $maxWidth }) => $maxWidth}px;
  margin: 56px auto 0;
  padding: 0 24px;

  ${media.narrow} {
    margin-top: 40px;
    padding: 0 16px;
  }
`;

/** The centred heading of a PageSection. */
export const SectionHeading = styled.h2`
  text-align: center;
  font-size: 1.75rem;
  margin-bottom: 24px;
`;
