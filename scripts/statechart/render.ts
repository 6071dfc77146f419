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
  if (item && typeof item === 'object' && 'type' in item) return String((item as { type: unknown }).type);
  return '(inline)';
}

/** The event as a reader knows it: "after seatDebounce", "done: confirmPayment", or the event type. */
function eventLabel(node: AnyStateNode, eventType: string): string {
  if (eventType.startsWith('xstate.after.')) return `after ${eventType.slice('xstate.after.'.length).split('.')[0]}`;
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

function transitionRows(machine: AnyStateMachine): TransitionRow[] {
  const rows: TransitionRow[] = [];
  for (const node of allNodes(machine.root)) {
    const source = label(node);
    const definitions = [
      ...[...node.transitions.entries()].flatMap(([eventType, list]) => list.map((t) => ({ eventType, t }))),
      ...(node.always ?? []).map((t) => ({ eventType: 'always', t })),
    ];
    for (const { eventType, t } of definitions) {
      rows.push({
        source,
        event: eventLabel(node, eventType),
        guard: t.guard ? nameOf(t.guard) : '',
        target: t.target?.map((target) => label(target)).join(', ') ?? '(stays)',
        actions: t.actions.map(nameOf).join(', '),
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
  for (const node of allNodes(machine.root)) {
    if (node === machine.root) continue;
    const definitions = [
      ...[...node.transitions.entries()].flatMap(([eventType, list]) => list.map((t) => ({ eventType, t }))),
      ...(node.always ?? []).map((t) => ({ eventType: 'always', t })),
    ];
    for (const { eventType, t } of definitions) {
      for (const target of t.target ?? []) {
        const guard = t.guard ? ` [${nameOf(t.guard)}]` : '';
        lines.push(`  ${mermaidId(node)} --> ${mermaidId(target)}: ${eventLabel(node, eventType)}${guard}`);
      }
    }
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
  const missing = events.filter((type) => !(type in EVENT_GLOSSARY));
  if (missing.length > 0) throw new Error(`Describe these events in scripts/statechart/eventGlossary.ts: ${missing.join(', ')}`);
  const table = transitionRows(machine)
    .map((row) => `| ${row.source} | ${row.event} | ${row.guard} | ${row.target} | ${row.actions} |`)
    .join('\n');
  const glossary = events.map((type) => `| \`${type}\` | ${EVENT_GLOSSARY[type]} |`).join('\n');
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
    '### Events',
    '',
    '| event | meaning |',
    '| --- | --- |',
    glossary,
    '',
  ].join('\n');
}
