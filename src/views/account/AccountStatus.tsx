import styled from 'styled-components';
import type { AccountView } from '../../contract/account';
import { colors } from '../theme';
import { day } from './accountDates';

type Tone = 'active' | 'ending' | 'pastDue' | 'ended';

/** The subscription's status in words, as the page and its tests read it. */
function statusText(account: AccountView): string {
  if (account.status === 'cancelled') return 'Cancelled';
  // A failed payment comes first: it needs the buyer now, even when the subscription ends later.
  if (account.status === 'past_due') return 'Past due: your last payment failed. Please update your card.';
  if (account.cancelAt) return `Cancelled at period end: ends on ${day(account.cancelAt)}`;
  return 'Active';
}

function toneOf(account: AccountView): Tone {
  if (account.status === 'cancelled') return 'ended';
  if (account.status === 'past_due') return 'pastDue';
  return account.cancelAt ? 'ending' : 'active';
}

/** The status in words and in colour (the words carry it alone; the colour repeats them). */
export function AccountStatus({ account }: { account: AccountView }) {
  return (
    <Badge role="status" $tone={toneOf(account)}>
      {statusText(account)}
    </Badge>
  );
}

const TONES: Record<Tone, { color: string; background: string; border: string }> = {
  active: { color: colors.success, background: colors.successSoft, border: '#86efac' },
  ending: { color: '#9a3412', background: colors.warningSoft, border: '#fdba74' },
  pastDue: { color: colors.danger, background: colors.dangerSoft, border: '#fca5a5' },
  ended: { color: colors.text, background: colors.page, border: colors.border },
};

const Badge = styled.span<{ $tone: Tone }>`
  display: inline-block;
  padding: 2px 10px;
  border-radius: 999px;
  border: 1px solid ${({ $tone }) => TONES[$tone].border};
  background: ${({ $tone }) => TONES[$tone].background};
  color: ${({ $tone }) => TONES[$tone].color};
  font-weight: 700;
`;
