import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { Centered } from './shared/Centered';

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
