/**
 * Renders a statechart as Markdown: a Mermaid stateDiagram-v2 and a table of every transition, read from the
 * machine definition itself (XState v5 StateNode), so the document cannot drift from the code.
 */
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { EVENT_GLOSSARY } from './eventGlossary';

interface TransitionRow {
  source: string;
  event: string;
  guard: string;
  target: string;
  actions: string;
}

const mermaidId = (node: AnyStateNode): string => node.id.replace(/\./g, '_');
const label = (node: AnyStateNode): string => node.path.join('.') || node.id;

function nameOf(item: unknown): string {
  if (typeof item === 'string') return item;
  if (typeof item === 'function' && 'guards' in item && 'check' in item) {
    const parts = (item as { guards: unknown[] }).guards.map(nameOf);
    const check = (item as { check: { name: string } }).check.name;
    if (check === 'checkNot') return `not ${parts.join(', ')}`;
    return parts.join(check === 'checkOr' ? ' or ' : ' and ');
  }
  if (item && typeof item === 'object' && 'type' in item) return String(item.type);
  return '(inline)';
}

/**
 * Timers that actions start with a delayed `raise` inside `enqueueActions` (not visible in the definition):
 * the action, the timer's id, the event it raises and the delay it uses.
 */
export const RAISED_TIMERS: Record<string, { timer: string; event: string; delay: string }> = {
  celebrateAtTwoSeats: { timer: 'confettiTimer', event: 'CONFETTI_ENDED', delay: 'confetti' },
  scheduleFirstNameFocus: { timer: 'firstNameFocusTimer', event: 'FIRST_NAME_FOCUS_DUE', delay: 'firstNameFocus' },
};

/** A named delay with its value: "seatDebounce (2000 ms)". */
function delayLabel(machine: AnyStateMachine, name: string): string {
  const value = (machine.implementations.delays as Record<string, unknown>)[name];
  return typeof value === 'number' ? `${name} (${value} ms)` : name;
}

/** The event as a reader knows it: "after seatDebounce (2000 ms)", "done: confirmPayment", or the event type. */
function eventLabel(node: AnyStateNode, eventType: string): string {
  if (eventType.startsWith('xstate.after.')) {
    return `after ${delayLabel(node.machine, eventType.slice('xstate.after.'.length).split('.')[0] ?? '')}`;
  }
  for (const kind of ['done', 'error'] as const) {
    const prefix = `xstate.${kind}.actor.`;
    if (eventType.startsWith(prefix)) {
      const invoke = node.invoke.find((definition) => eventType === `${prefix}${definition.id}`);
      return `${kind}: ${invoke ? nameOf(invoke.src) : eventType.slice(prefix.length)}`;
    }
  }
  return eventType;
}

function allNodes(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap((child) => allNodes(child as AnyStateNode))];
}

type Definition = { eventType: string; t: AnyStateNode['always'] extends (infer T)[] | undefined ? T : never; guard: string };

/** Every transition of `node` in XState's order, its guard named, a guardless branch after a guarded one 'otherwise'. */
function definitionsOf(node: AnyStateNode): Definition[] {
  const lists: [string, Definition['t'][]][] = [
    ...node.transitions.entries(),
    ...(node.always ? [['always', node.always] as [string, Definition['t'][]]] : []),
  ];
  return lists.flatMap(([eventType, list]) =>
    list.map((t, index) => ({ eventType, t, guard: t.guard ? nameOf(t.guard) : index > 0 ? 'otherwise' : '' })),
  );
}

/** Actions with the timers they start: "celebrateAtTwoSeats (starts confettiTimer)". */
function actionsLabel(actions: readonly unknown[]): string {
  return actions
    .map(nameOf)
    .map((name) => (RAISED_TIMERS[name] ? `${name} (starts ${RAISED_TIMERS[name].timer})` : name))
    .join(', ');
}

function transitionRows(machine: AnyStateMachine): TransitionRow[] {
  const rows: TransitionRow[] = [];
  for (const node of allNodes(machine.root)) {
    const source = label(node);
    for (const { eventType, t, guard } of definitionsOf(node)) {
      rows.push({
        source,
        event: eventLabel(node, eventType),
        guard,
        target: t.target?.map((target) => label(target)).join(', ') ?? '(stays)',
        actions: actionsLabel(t.actions),
      });
    }
  }
  return rows;
}

function mermaid(machine: AnyStateMachine): string {
  const lines = ['stateDiagram-v2'];
  const renderNode = (node: AnyStateNode, indent: string): void => {
    const children = Object.values(node.states) as AnyStateNode[];
    for (const child of children) {
      lines.push(`${indent}state "${child.key}" as ${mermaidId(child)}`);
    }
    const initial = node.initial?.target?.[0];
    if (initial) lines.push(`${indent}[*] --> ${mermaidId(initial)}`);
    for (const child of children) {
      if (child.type === 'final') lines.push(`${indent}${mermaidId(child)} --> [*]`);
      if (Object.keys(child.states).length > 0) {
        lines.push(`${indent}state ${mermaidId(child)} {`);
        renderNode(child, `${indent}  `);
        lines.push(`${indent}}`);
      }
    }
  };
  renderNode(machine.root, '  ');
  // Transitions of the machine itself apply in every state: drawn as self-loops on a box of their own.
  const rootId = `${mermaidId(machine.root)}_anyState`;
  if (definitionsOf(machine.root).length > 0) lines.push(`  state "in any state" as ${rootId}`);
  for (const node of allNodes(machine.root)) {
    const from = node === machine.root ? rootId : mermaidId(node);
    // Mermaid draws one loop per state: every transition that stays (runs its actions only) shares it, a line each.
    const stays: string[] = [];
    for (const { eventType, t, guard } of definitionsOf(node)) {
      const condition = guard ? ` [${guard}]` : '';
      const targets = t.target ?? [];
      // Every transition names the actions it runs, so no action is only in the table.
      const actions = t.actions.length > 0 ? ` / ${actionsLabel(t.actions)}` : '';
      if (targets.length === 0) stays.push(`${eventLabel(node, eventType)}${condition}${actions}`);
      for (const target of targets) lines.push(`  ${from} --> ${mermaidId(target)}: ${eventLabel(node, eventType)}${condition}${actions}`);
    }
    if (stays.length > 0) lines.push(`  ${from} --> ${from}: ${stays.join('<br/>')}`);
  }
  return lines.join('\n');
}

/** The event types a machine handles (not the internal after/done/error ones). */
function eventTypes(machine: AnyStateMachine): string[] {
  const types = new Set<string>();
  for (const node of allNodes(machine.root)) {
    for (const eventType of node.transitions.keys()) {
      if (!eventType.startsWith('xstate.')) types.add(eventType);
    }
  }
  return [...types].sort();
}

/** Markdown for one machine: diagram, transitions and events. @throws when an event has no glossary entry. */
export function renderMachine(title: string, sourceFile: string, machine: AnyStateMachine): string {
  const events = eventTypes(machine);
  const meaning = (type: string): string | undefined => EVENT_GLOSSARY[`${machine.id}.${type}`] ?? EVENT_GLOSSARY[type];
  const missing = events.filter((type) => meaning(type) === undefined);
  if (missing.length > 0) {
    throw new Error(`Describe these events of ${machine.id} in scripts/statechart/eventGlossary.ts: ${missing.join(', ')}`);
  }
  const table = transitionRows(machine)
    .map((row) => `| ${row.source} | ${row.event} | ${row.guard} | ${row.target} | ${row.actions} |`)
    .join('\n');
  const glossary = events.map((type) => `| \`${type}\` | ${meaning(type) ?? ''} |`).join('\n');
  // A state's own entry actions; the timers of its `after` transitions (XState's internal raises) are drawn as delays.
  const entries = allNodes(machine.root)
    .map((node) => ({ node, named: node.entry.filter((action) => nameOf(action) !== '(inline)') }))
    .filter(({ named }) => named.length > 0)
    .map(({ node, named }) => `| ${label(node)} | ${actionsLabel(named)} |`);
  return [
    `## ${title}`,
    '',
    `Source: \`${sourceFile}\` (machine id \`${machine.id}\`).`,
    '',
    '```mermaid',
    mermaid(machine),
    '```',
    '',
    '### Transitions',
    '',
    'Rows are in the order XState tries them: the first whose guard passes is taken. "(stays)" means the',
    'transition only runs its actions.',
    '',
    '| state | event | guard | target | actions |',
    '| --- | --- | --- | --- | --- |',
    table,
    '',
    ...(entries.length > 0 ? ['### On entering a state', '', '| state | actions |', '| --- | --- |', ...entries, ''] : []),
    '### Events',
    '',
    '| event | meaning |',
    '| --- | --- |',
    glossary,
    '',
  ].join('\n');
}
