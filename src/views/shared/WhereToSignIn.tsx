import { useMachine } from '@xstate/react';
import styled from 'styled-components';
import { publicConfigMachine } from '../../machines/publicConfigMachine';
import { colors } from '../theme';

/** The address's host, as people read it ("academy.example.com"). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * Where people sign in to the training: `lead`, then the link that starts the training platform's sign-in
 * (TRAINING_PLATFORM_URL, read through the public configuration, publicConfigMachine) with its address; when the
 * platform's address is not configured (or not read yet), `lead` alone, which names the platform. `as`: a paragraph,
 * or an item of a list of steps.
 */
export function WhereToSignIn({ lead, as = 'p', testId }: { lead: string; as?: 'p' | 'li'; testId?: string }) {
  const [snapshot] = useMachine(publicConfigMachine);
  const url = snapshot.context.config?.trainingPlatformUrl ?? null;
  return (
    <Line as={as} data-testid={testId}>
      {lead}
      {url && (
        <>
          {' '}
          <a href={url}>Go to the training platform</a> <Address>({hostOf(url)})</Address>
        </>
      )}
    </Line>
  );
}

const Line = styled.p`
  margin: 12px 0;
  overflow-wrap: anywhere;

  a {
    color: ${colors.brandDark};
    font-weight: 700;
  }
`;

const Address = styled.span`
  color: ${colors.muted};
`;
