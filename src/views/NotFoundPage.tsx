import { useEffect } from 'react';
import styled from 'styled-components';
import { Link, useLocation } from 'wouter';
import { Centered } from './shared/Centered';
import { usePageTitle } from './shared/usePageTitle';
import { colors } from './theme';

/** Any unknown route: '404', 'Oops! Page not found' and a way home; the missing path is logged (spec §2). */
export function NotFoundPage() {
  const [path] = useLocation();
  usePageTitle('Page not found');
  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', path);
  }, [path]);
  return (
    <Centered>
      <Code>404</Code>
      <p>Oops! Page not found</p>
      <Link href="/">Return to Home</Link>
    </Centered>
  );
}

const Code = styled.h1`
  font-size: 3rem;
  font-weight: 800;
  color: ${colors.ink};
`;
