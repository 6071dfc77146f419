import { useId, useLayoutEffect, useRef } from 'react';
import styled from 'styled-components';
import { formatDollars, monthlySavingCents } from '../../domain/pricing';
import { Card, CardTitle } from '../shared/Card';
import { Spinner } from '../shared/Spinner';
import { Tooltip } from '../shared/Tooltip';
import { colors, radii } from '../theme';
import { CheckoutActor } from './checkoutActor';
import {
  selectCanAddSeat,
  selectCanRemoveSeat,
  selectCelebrating,
  selectMaxSeats,
  selectPendingSeats,
  selectSeatNotice,
  selectSeatText,
  selectUpdating,
} from './checkoutSelectors';
import { LazyConfetti } from './LazyConfetti';
import { monthlyTotalText, priceLines } from './priceLines';
import { seatButtonHints } from './seatHints';

/**
 * The seat selector: − count +, price lines and total, 'Updating...' while the server confirms, the saving banner.
 * The count box takes a typed number too; a refused entry stays in it with why, under the controls.
 */
export function SeatSelector() {
  const actorRef = CheckoutActor.useActorRef();
  const seats = CheckoutActor.useSelector(selectPendingSeats);
  const canAdd = CheckoutActor.useSelector(selectCanAddSeat);
  const canRemove = CheckoutActor.useSelector(selectCanRemoveSeat);
  const updating = CheckoutActor.useSelector(selectUpdating);
  const celebrating = CheckoutActor.useSelector(selectCelebrating);
  const maxSeats = CheckoutActor.useSelector(selectMaxSeats);
  const seatText = CheckoutActor.useSelector(selectSeatText);
  const seatNotice = CheckoutActor.useSelector(selectSeatNotice);
  const noticeId = useId();
  const savingCents = monthlySavingCents(seats);
  const { increaseRef, decreaseRef, countRef } = useFocusThroughLock(canAdd, canRemove);
  const hints = seatButtonHints({ seats, maxSeats, locked: !canAdd, updating });

  return (
    <Card aria-labelledby="seat-selector-title">
      <CardTitle id="seat-selector-title">Select Your Team Size</CardTitle>
      <Controls>
        <Tooltip id="decrease-seats-hint" text={hints.remove}>
          {(describedBy) => (
            <StepButton
              ref={decreaseRef}
              type="button"
              aria-label="Decrease seats"
              aria-describedby={describedBy}
              disabled={!canRemove}
              onClick={() => actorRef.send({ type: 'SEAT_REMOVED' })}
            >
              −
            </StepButton>
          )}
        </Tooltip>
        {/* Read-only, not disabled, while locked: a disabled box would drop the focus of someone typing in it. */}
        <Count
          ref={countRef}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          aria-label="Seats"
          aria-invalid={seatNotice ? true : undefined}
          aria-describedby={seatNotice ? noticeId : undefined}
          $invalid={Boolean(seatNotice)}
          readOnly={!canAdd}
          value={seatText}
          onChange={(event) => actorRef.send({ type: 'SEATS_TYPED', text: event.target.value })}
        />
        <Tooltip id="increase-seats-hint" text={hints.add}>
          {(describedBy) => (
            <StepButton
              ref={increaseRef}
              type="button"
              aria-label="Increase seats"
              aria-describedby={describedBy}
              disabled={!canAdd}
              onClick={() => actorRef.send({ type: 'SEAT_ADDED' })}
            >
              +
            </StepButton>
          )}
        </Tooltip>
        <SeatsWord>{seats === 1 ? 'seat' : 'seats'}</SeatsWord>
        {updating && (
          <Updating role="status">
            <Spinner $size={16} />
            Updating...
          </Updating>
        )}
      </Controls>
      {seatNotice && (
        <SeatNotice id={noticeId} role="alert">
          {seatNotice}
        </SeatNotice>
      )}
      <Lines>
        {priceLines(seats).map((line) => (
          <Line key={line.label}>
            <dt>{line.label}</dt>
            <dd>{line.amount}</dd>
          </Line>
        ))}
        <TotalLine>
          <dt>Total</dt>
          <dd>
            <span data-testid="seat-total">{monthlyTotalText(seats)}</span>/month
          </dd>
        </TotalLine>
      </Lines>
      {savingCents > 0 && <SavingBanner>{`You're saving ${formatDollars(savingCents)} today!`}</SavingBanner>}
      {celebrating && <LazyConfetti />}
    </Card>
  );
}

/**
 * Keeps the keyboard on the seat control while a button locks (a disabled button drops the focus to the page):
 * the focus waits on the count, which is announced, and goes back to the same button once it is usable again.
 */
function useFocusThroughLock(canAdd: boolean, canRemove: boolean) {
  const increase = useRef<HTMLButtonElement>(null);
  const decrease = useRef<HTMLButtonElement>(null);
  const count = useRef<HTMLInputElement>(null);
  const waiting = useRef<'increase' | 'decrease' | null>(null);

  // A layout effect runs right after the buttons' `disabled` changed, before the browser moves the focus away.
  useLayoutEffect(() => {
    const buttons = { increase: increase.current, decrease: decrease.current };
    const usable = { increase: canAdd, decrease: canRemove };
    const active = document.activeElement;
    const focused = active === buttons.increase ? 'increase' : active === buttons.decrease ? 'decrease' : null;
    if (focused && !usable[focused]) {
      waiting.current = focused;
      count.current?.focus();
    } else if (waiting.current && active === count.current && usable[waiting.current]) {
      buttons[waiting.current]?.focus();
      waiting.current = null;
    }
  }, [canAdd, canRemove]);

  return { increaseRef: increase, decreaseRef: decrease, countRef: count };
}

const Controls = styled.div`
  display: flex;
  align-items: center;
  flex-wrap: wrap;
  gap: 12px;
  margin-bottom: 20px;
`;

const StepButton = styled.button`
  width: 44px;
  height: 44px;
  border-radius: ${radii.medium};
  border: 1px solid ${colors.border};
  background: ${colors.surface};
  color: ${colors.ink};
  font-size: 1.5rem;
  line-height: 1;
  cursor: pointer;

  &:hover:not(:disabled) {
    border-color: ${colors.brand};
    color: ${colors.brand};
  }
  &:disabled {
    opacity: 0.45;
    cursor: not-allowed;
  }
`;

const Count = styled.input<{ $invalid: boolean }>`
  width: 72px;
  height: 44px;
  text-align: center;
  border: 2px solid ${({ $invalid }) => ($invalid ? colors.danger : colors.brand)};
  border-radius: ${radii.medium};
  font-size: 1.375rem;
  font-weight: 800;
  color: ${colors.ink};
`;

const SeatNotice = styled.p`
  margin: -8px 0 16px;
  color: ${colors.danger};
  font-size: 0.875rem;
  font-weight: 600;
`;

const SeatsWord = styled.span`
  color: ${colors.muted};
`;

const Updating = styled.span`
  display: inline-flex;
  align-items: center;
  gap: 8px;
  color: ${colors.brand};
  font-size: 0.875rem;
  font-weight: 600;
`;

const Lines = styled.dl`
  margin: 0;
  display: flex;
  flex-direction: column;
  gap: 8px;
`;

const Line = styled.div`
  display: flex;
  justify-content: space-between;
  gap: 16px;

  dd {
    margin: 0;
    font-weight: 600;
    color: ${colors.ink};
  }
`;

const TotalLine = styled(Line)`
  padding-top: 12px;
  border-top: 1px solid ${colors.border};
  font-size: 1.125rem;

  dt {
    font-weight: 700;
    color: ${colors.ink};
  }
  dd {
    font-weight: 800;
  }
`;

const SavingBanner = styled.p`
  margin-top: 16px;
  padding: 12px 16px;
  border-radius: ${radii.medium};
  background: ${colors.successSoft};
  border: 1px solid #86efac;
  color: #166534;
  font-weight: 700;
  text-align: center;
`;
