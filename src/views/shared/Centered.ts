import styled from 'styled-components';
import { colors } from '../theme';

/** A full-height page with its content centred: the redirect and 404 pages. */
export const Centered = styled.main`
  min-height: 100vh;
  display: flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  gap: 12px;
  padding: 24px;
  text-align: center;
  color: ${colors.muted};
`;
