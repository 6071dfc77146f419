import { useEffect } from 'react';
import styled from 'styled-components';
import { useLocation } from 'wouter';
import { colors } from './theme';

/** /index: says it is redirecting, then replaces itself with / at once (spec §2). */
export function RedirectToHomePage() {
  const [, navigate] = useLocation();
  useEffect(() => navigate('/', { replace: true }), [navigate]);
  return (
    <Centered>
      <h1>Redirecting to Home</h1>
      <p>Please wait...</p>
    </Centered>
  );
}

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
