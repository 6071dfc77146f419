import type { ReactNode } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { PAGE_PATHS } from '../../domain/pagePaths';
import { colors, radii } from '../theme';
import { BreakableText } from '../shared/BreakableText';
import { WhereToSignIn } from '../shared/WhereToSignIn';

/**
 * 'What happens next', under the spec's content of the success page: the confirmation mail on its way to the
 * buyer's address, where the training is signed in to (the training platform, TRAINING_PLATFORM_URL), and where the
 * subscription is managed (/account). `children` are further steps, as list
 * items (a later section adds the team's).
 */
export function WhatHappensNext({ email, children }: { email: string; children?: ReactNode }) {
  const address = `${window.location.origin}${PAGE_PATHS.account}`;
  return (
    <Section aria-labelledby="next-steps-title">
      <Title id="next-steps-title">What happens next</Title>
      <Steps>
        <li>
          A confirmation with your order is on its way to{' '}
          <strong>
            <BreakableText text={email} />
          </strong>
          . No mail in a few minutes? Check your spam folder.
        </li>
        <WhereToSignIn
          as="li"
          testId="where-to-sign-in"
          lead="After the agreement, you sign in to the training on the training platform, with the email and password above."
        />
        <li>
          Change seats, update your card or cancel at any time on your account page:{' '}
          <Link href={PAGE_PATHS.account}>
            <BreakableText text={address} />
          </Link>
          . We email you a sign-in link there; no password needed.
        </li>
        {children}
      </Steps>
    </Section>
  );
}

const Section = styled.section`
  padding: 20px;
  border: 1px solid ${colors.border};
  border-radius: ${radii.medium};
  background: ${colors.page};
`;

const Title = styled.h2`
  font-size: 1.0625rem;
  margin-bottom: 12px;
`;

const Steps = styled.ol`
  margin: 0;
  padding-left: 1.25rem;
  display: flex;
  flex-direction: column;
  gap: 8px;
  color: ${colors.text};

  a {
    color: ${colors.brandDark};
    font-weight: 700;
  }
`;
