/**
 * A hint on a control (WAI-ARIA tooltip pattern: the hint is `role="tooltip"`, the control names it in
 * `aria-describedby`), timed by the page's one tooltip statechart (src/machines/tooltipMachine.ts, spec §9:
 * 700 ms, skip 300 ms; docs/decisions/0050-tooltips.md). It opens on the pointer resting on the control or on
 * keyboard focus, and Escape dismisses it. The hint stays in the page while hidden, so a screen reader reads it as
 * the control's description at once.
 */
import { useSelector } from '@xstate/react';
import { createContext, useContext, useEffect, useRef, type PointerEvent, type ReactNode } from 'react';
import styled, { css } from 'styled-components';
import { createActor, type ActorRefFrom } from 'xstate';
import { tooltipMachine } from '../../machines/tooltipMachine';
import { colors, radii } from '../theme';

type TooltipGroupRef = ActorRefFrom<typeof tooltipMachine>;

let pageGroup: TooltipGroupRef | null = null;

/** The page's one group, created with its first tooltip and shared by every React root of the page (islands). */
function pageTooltipGroup(): TooltipGroupRef {
  pageGroup ??= createActor(tooltipMachine).start();
  return pageGroup;
}

/** Replaces the page's group (tests give one on a simulated clock). */
export const TooltipGroupContext = createContext<TooltipGroupRef | null>(null);

interface TooltipProps {
  /** The hint's element id: fixed, as the server's HTML and an island's first render must agree (decision 0027). */
  id: string;
  text: string;
  /** Centred over the control, or aligned with its end (a control near the screen's right edge). */
  align?: 'center' | 'end';
  /** The control, given the id to put in its `aria-describedby`. */
  children: (describedBy: string) => ReactNode;
}

export function Tooltip({ id, text, align = 'center', children }: TooltipProps) {
  const group = useContext(TooltipGroupContext) ?? pageTooltipGroup();
  const open = useSelector(group, (snapshot) => snapshot.context.openId === id);
  const active = useRef({ hovered: false, focused: false });

  const report = (change: Partial<typeof active.current>) => {
    const was = active.current.hovered || active.current.focused;
    active.current = { ...active.current, ...change };
    const is = active.current.hovered || active.current.focused;
    if (is && !was) group.send({ type: 'TRIGGER_ENTERED', id });
    if (!is && was) group.send({ type: 'TRIGGER_LEFT', id });
  };

  useEffect(() => {
    if (!open) return;
    const dismissOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') group.send({ type: 'DISMISSED' });
    };
    document.addEventListener('keydown', dismissOnEscape);
    return () => document.removeEventListener('keydown', dismissOnEscape);
  }, [open, group]);

  // A control that goes away while active lets the group go on.
  useEffect(
    () => () => {
      if (active.current.hovered || active.current.focused) group.send({ type: 'TRIGGER_LEFT', id });
    },
    [group, id],
  );

  return (
    <Anchor
      // A touch is a tap, not a pointer resting on the control: it shows no hint (focus may).
      onPointerEnter={(event) => {
        if (!isTouch(event)) report({ hovered: true });
      }}
      onPointerLeave={(event) => {
        if (!isTouch(event)) report({ hovered: false });
      }}
      onFocus={() => report({ focused: true })}
      onBlur={() => report({ focused: false })}
    >
      {children(id)}
      <Bubble role="tooltip" id={id} hidden={!open} $align={align}>
        {text}
      </Bubble>
    </Anchor>
  );
}

const isTouch = (event: PointerEvent) => event.pointerType === 'touch';

const Anchor = styled.span`
  position: relative;
  display: inline-flex;

  /* A disabled control takes no pointer events: the anchor does, so its hint (why it is off) still shows. */
  & > :disabled {
    pointer-events: none;
  }
`;

const Bubble = styled.span<{ $align: 'center' | 'end' }>`
  position: absolute;
  bottom: calc(100% + 6px);
  z-index: 20;
  width: max-content;
  max-width: 240px;
  padding: 6px 10px;
  border-radius: ${radii.small};
  background: ${colors.ink};
  color: #fff;
  font-size: 0.8125rem;
  font-weight: 500;
  line-height: 1.4;
  text-align: center;
  ${({ $align }) =>
    $align === 'end'
      ? css`
          right: 0;
        `
      : css`
          left: 50%;
          transform: translateX(-50%);
        `}

  &[hidden] {
    display: none;
  }
`;
