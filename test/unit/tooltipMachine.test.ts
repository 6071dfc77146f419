/**
 * Spec §9 "Tooltip delay 700 ms, skip delay 300 ms", under XState's SimulatedClock: a hint opens 700 ms after its
 * control is entered, at once within 300 ms of another closing, and Escape closes it.
 */
import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import { tooltipMachine } from '../../src/machines/tooltipMachine';

/** Spec §9, written here from the spec rather than read from the machine. */
const DELAY_MS = 700;
const SKIP_DELAY_MS = 300;

function start() {
  const clock = new SimulatedClock();
  const actor = createActor(tooltipMachine, { clock }).start();
  const openId = () => actor.getSnapshot().context.openId;
  const enter = (id: string) => actor.send({ type: 'TRIGGER_ENTERED', id });
  const leave = (id: string) => actor.send({ type: 'TRIGGER_LEFT', id });
  const wait = (ms: number) => clock.increment(ms);
  return { actor, openId, enter, leave, wait };
}

describe('the tooltip group', () => {
  it('opens a hint 700 ms after its control is entered, not before', () => {
    const { openId, enter, wait } = start();
    enter('a');
    wait(DELAY_MS - 1);
    expect(openId()).toBeNull();
    wait(1);
    expect(openId()).toBe('a');
  });

  it('opens nothing when the control is left before the delay', () => {
    const { actor, openId, enter, leave, wait } = start();
    enter('a');
    wait(DELAY_MS - 1);
    leave('a');
    wait(DELAY_MS);
    expect(openId()).toBeNull();
    expect(actor.getSnapshot().value).toBe('closed');
  });

  it('starts the delay again for a control entered while another waits', () => {
    const { openId, enter, wait } = start();
    enter('a');
    wait(500);
    enter('b');
    wait(DELAY_MS - 1);
    expect(openId()).toBeNull();
    wait(1);
    expect(openId()).toBe('b');
  });

  it('opens the next hint at once within 300 ms of one closing', () => {
    const { openId, enter, leave, wait } = start();
    enter('a');
    wait(DELAY_MS);
    leave('a');
    expect(openId()).toBeNull();
    wait(SKIP_DELAY_MS - 1);
    enter('b');
    expect(openId()).toBe('b');
  });

  it('waits the full delay again once 300 ms have passed since one closed', () => {
    const { openId, enter, leave, wait } = start();
    enter('a');
    wait(DELAY_MS);
    leave('a');
    wait(SKIP_DELAY_MS);
    enter('b');
    expect(openId()).toBeNull();
    wait(DELAY_MS);
    expect(openId()).toBe('b');
  });

  it('moves an open hint straight to the next control entered', () => {
    const { openId, enter, leave, wait } = start();
    enter('a');
    wait(DELAY_MS);
    enter('b');
    expect(openId()).toBe('b');
    leave('a');
    expect(openId()).toBe('b');
  });

  it('closes the open hint on Escape, and the next opens without waiting', () => {
    const { actor, openId, enter, wait } = start();
    enter('a');
    wait(DELAY_MS);
    actor.send({ type: 'DISMISSED' });
    expect(openId()).toBeNull();
    enter('b');
    expect(openId()).toBe('b');
  });

  it('ignores a control leaving that is neither waiting nor open', () => {
    const { openId, enter, leave, wait } = start();
    enter('a');
    leave('b');
    wait(DELAY_MS);
    expect(openId()).toBe('a');
  });
});
