/**
 * Every statechart names its implementations (docs/decisions/0058, 0060): in a machine's config (and in the
 * transitions a shared helper such as `sessionEndedTo` returns), each action, guard, invoked actor (`src`) and
 * delay (`after`) is a plain name that `setup()` implements; an implementation reads its own event. Then
 * Stately's editor and `npm run docs:statechart` show every one of them by name.
 *
 * Why on TypeScript's AST and not with `@xstate/machine-extractor`: its latest release (0.16.0) peers xstate ^4,
 * so npm refuses to install it beside our xstate 5 without `--legacy-peer-deps`; and it reads our v5
 * `setup({...}).createMachine({...})` files only in part: it reads guards under v4's `cond` key, so it sees none
 * of our `guard`s, and an action written `{ type, params: ({ event }) => … }` is left out of its list rather than
 * reported. The rule below is the one the extractor would need.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const MACHINES = fileURLToPath(new URL('../../src/machines', import.meta.url));

/** Keys whose value names implementations: transition and state actions, guards, invoked actors. */
const NAMED = new Set(['actions', 'entry', 'exit', 'guard', 'src']);
/** XState's guard combinators: a plain name when every guard they combine is one. */
const GUARD_COMBINATORS = new Set(['and', 'or', 'not']);

const unwrap = (node: ts.Expression): ts.Expression =>
  ts.isAsExpression(node) || ts.isParenthesizedExpression(node) || ts.isSatisfiesExpression(node) ? unwrap(node.expression) : node;

/** Whether `node`, the value of `key`, names its implementations (a string, a list of them, `{ type, params }` without a function). */
function isNamed(node: ts.Expression, key: string): boolean {
  const value = unwrap(node);
  if (ts.isStringLiteral(value) || ts.isNoSubstitutionTemplateLiteral(value)) return true;
  if (ts.isArrayLiteralExpression(value)) return key !== 'guard' && value.elements.every((each) => isNamed(each, key));
  if (ts.isObjectLiteralExpression(value)) {
    const props = new Map(value.properties.filter(ts.isPropertyAssignment).map((each) => [each.name.getText(), unwrap(each.initializer)]));
    const type = props.get('type');
    const params = props.get('params');
    const paramsIsCode = params !== undefined && (ts.isArrowFunction(params) || ts.isFunctionExpression(params) || ts.isIdentifier(params));
    return value.properties.every(ts.isPropertyAssignment) && type !== undefined && ts.isStringLiteral(type) && !paramsIsCode;
  }
  if (key === 'guard' && ts.isCallExpression(value) && ts.isIdentifier(value.expression) && GUARD_COMBINATORS.has(value.expression.text)) {
    return value.arguments.every((argument) => {
      const inner = unwrap(argument);
      return ts.isArrayLiteralExpression(inner) ? inner.elements.every((each) => isNamed(each, key)) : isNamed(inner, key);
    });
  }
  return false;
}

/** The delays of an `after` that are not names: a number of milliseconds, or a computed key. */
function isNamedDelays(node: ts.Expression): boolean {
  const value = unwrap(node);
  return (
    ts.isObjectLiteralExpression(value) &&
    value.properties.every((each) => each.name !== undefined && (ts.isIdentifier(each.name) || ts.isStringLiteral(each.name)))
  );
}

interface Finding {
  where: string;
  code: string;
}

/**
 * Every implementation in `source` that is not a plain name, with where it is, and how many were names. The
 * implementations given to `setup()` are skipped: there they are code by design.
 */
function unnamedImplementations(fileName: string, source: string): { findings: Finding[]; named: number } {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const findings: Finding[] = [];
  let named = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'setup') return;
    if (ts.isShorthandPropertyAssignment(node) && (NAMED.has(node.name.text) || node.name.text === 'after')) {
      findings.push({ where: `${fileName}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`, code: node.getText() });
    }
    if (ts.isPropertyAssignment(node) && !ts.isComputedPropertyName(node.name)) {
      const key = node.name.getText().replace(/^['"]|['"]$/g, '');
      const ok = NAMED.has(key) ? isNamed(node.initializer, key) : key === 'after' ? isNamedDelays(node.initializer) : null;
      if (ok === false) {
        findings.push({
          where: `${fileName}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`,
          code: node.getText().split('\n')[0] ?? '',
        });
      }
      if (ok === true) named++;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { findings, named };
}

describe('every statechart names its actions, guards, actors and delays', () => {
  it('finds an inlined action, guard, actor or delay (the check can fail)', () => {
    const inlined = `
      setup({ actions: { kept: () => {} } }).createMachine({
        entry: () => {},
        states: {
          a: {
            on: { GO: [{ guard: ({ context }) => context.ok, actions: { type: 'assignX', params: ({ event }) => event.output } }] },
            after: { 500: 'b' },
            invoke: { src: fromPromise(async () => 1), onError: { actions: ['named', assign({ x: 1 })] } },
          },
        },
      });`;
    const { findings } = unnamedImplementations('inlined.ts', inlined);
    expect(findings.map((each) => each.code.split(':')[0])).toEqual(['entry', 'guard', 'actions', 'after', 'src', 'actions']);
  });

  it('reads names, lists of names, static params and guard combinators as names', () => {
    const named = `
      setup({}).createMachine({
        entry: ['a', 'b'],
        states: {
          a: {
            on: { GO: [{ guard: and(['x', 'y']), actions: { type: 'assignX', params: { field: 'email' } } }, helper('a')] },
            after: { searchDelay: 'b' },
            invoke: { src: 'load', input: ({ context }) => context, onError: { guard: not('z'), actions: 'assignError' } },
          },
        },
      });`;
    expect(unnamedImplementations('named.ts', named)).toEqual({ findings: [], named: 7 });
  });

  const files = readdirSync(MACHINES).filter((name) => name.endsWith('.ts'));

  it.each(files)('%s', (name) => {
    const source = readFileSync(join(MACHINES, name), 'utf8');
    const { findings, named } = unnamedImplementations(`src/machines/${name}`, source);
    expect(findings, 'name each implementation in setup() and let it read its own event (docs/decisions/0060)').toEqual([]);
    // A machine's file names something; the check read its config rather than nothing.
    if (source.includes('.createMachine(')) expect(named).toBeGreaterThan(0);
  });
});
