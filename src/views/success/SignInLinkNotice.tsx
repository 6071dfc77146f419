import styled from 'styled-components';
import { Link } from 'wouter';
import { BreakableText } from '../shared/BreakableText';
import { colors, radii } from '../theme';

/** Where the manage page lives, as the buyer would type it. */
function accountAddress(): string {
  return `${window.location.origin}/account`;
}

/**
 * Shown instead of the credentials when finalize answered none (docs/decisions/0026): the password was handed out
 * once already, so the buyer gets in through the sign-in link mailed to `email` and the manage page.
 */
export function SignInLinkNotice({ email }: { email: string }) {
  const address = accountAddress();
  return (
    <Notice aria-labelledby="sign-in-title">
      <Title id="sign-in-title">We’ve emailed you a sign-in link</Title>
      <p>
        We sent it to{' '}
        <strong>
          <BreakableText text={email} />
        </strong>
        . It opens your account, where you can get new login credentials and manage your subscription.
      </p>
      <p>
        Your account:{' '}
        <Link href="/account">
          <BreakableText text={address} />
        </Link>
        . No mail after a few minutes? Ask for a new link there.
      </p>
    </Notice>
  );
}

const Notice = styled.section`
  padding: 20px;
  display: flex;
  flex-direction: column;
  gap: 8px;
  border: 2px solid ${colors.brand};
  border-radius: ${radii.medium};
  background: ${colors.brandSoft};
  color: ${colors.ink};

  a {
    font-weight: 700;
    overflow-wrap: anywhere;
  }
`;

const Title = styled.h2`
  font-size: 1.0625rem;
  color: ${colors.brandDark};
`;
