/**
 * Every mutant the statecharts disable is judged and listed (docs/decisions/0065): each `Stryker disable` comment
 * in src/machines/ is `// Stryker disable next-line <Mutator>: <why no buyer, page or test can observe it>` (one
 * line, named mutators, never `all`, a reason), and docs/testing.md's table of disabled mutants has one row per
 * file and mutator for each, and no row without its comment.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const MACHINES = join(ROOT, 'src/machines');
const TABLE_HEADING = '### Disabled mutants';

/** The form decision 0065 allows: named mutators (Stryker's names are words), a colon, a reason of some words. */
const DIRECTIVE = /^\s*\/\/ Stryker disable next-line ((?:[A-Z][A-Za-z]+)(?:,[A-Z][A-Za-z]+)*): (\S.{15,})$/;

interface Disabled {
  file: string;
  mutator: string;
}

/** Every `Stryker disable`/`restore` comment in the machines' files, with what it disables when well-formed. */
function directivesIn(files: Record<string, string>) {
  const found: { file: string; line: number; text: string; mutators: string[] | null }[] = [];
  for (const [file, text] of Object.entries(files)) {
    text.split('\n').forEach((line, index) => {
      if (!/Stryker\s+(disable|restore)/i.test(line)) return;
      const match = DIRECTIVE.exec(line);
      found.push({ file, line: index + 1, text: line.trim(), mutators: match ? match[1]!.split(',') : null });
    });
  }
  return found;
}

/** The (file, mutator) rows of the table under `### Disabled mutants`: first column the file, second the mutator. */
function tableRows(markdown: string): Disabled[] {
  const start = markdown.indexOf(TABLE_HEADING);
  if (start < 0) return [];
  const rows: Disabled[] = [];
  let inTable = false;
  for (const line of markdown.slice(start + TABLE_HEADING.length).split('\n')) {
    if (line.startsWith('|')) {
      inTable = true;
      const [file, mutator] = line
        .split('|')
        .slice(1, 3)
        .map((cell) => cell.trim().replace(/`/g, ''));
      if (!file || !mutator || /^-+$/.test(file) || file === 'file') continue;
      rows.push({ file: file, mutator: mutator });
    } else if (inTable) break;
  }
  return rows;
}

const key = (each: Disabled) => `${each.file} ${each.mutator}`;

describe('the mutants the statecharts disable (decision 0065)', () => {
  const files = Object.fromEntries(
    readdirSync(MACHINES)
      .filter((name) => name.endsWith('.ts'))
      .map((name) => [name, readFileSync(join(MACHINES, name), 'utf8')]),
  );
  const directives = directivesIn(files);
  const rows = tableRows(readFileSync(join(ROOT, 'docs/testing.md'), 'utf8'));

  it('disables one line at a time, names its mutators, never all, and says why', () => {
    const malformed = directives.filter((each) => each.mutators === null || each.mutators.includes('all'));
    expect(malformed.map((each) => `${each.file}:${each.line} ${each.text}`)).toEqual([]);
  });

  it("lists each disabled mutant in docs/testing.md's table, and no row without its comment", () => {
    const disabled = directives.flatMap((each) => (each.mutators ?? []).map((mutator) => ({ file: each.file, mutator })));
    expect(rows.map(key).sort(), `the table under "${TABLE_HEADING}" in docs/testing.md`).toEqual(disabled.map(key).sort());
  });

  it('finds a directive without a reason, one with all, and a row without its comment', () => {
    const found = directivesIn({
      'a.ts': '// Stryker disable next-line ObjectLiteral\n// Stryker disable all\n// Stryker disable next-line all: because',
      'b.ts': '  // Stryker disable next-line StringLiteral,ObjectLiteral: the words are never shown to anyone',
    });
    expect(found.map((each) => each.mutators)).toEqual([null, null, null, ['StringLiteral', 'ObjectLiteral']]);
    const table = `${TABLE_HEADING}\n\n| file | mutator | code | why |\n| --- | --- | --- | --- |\n| \`b.ts\` | \`StringLiteral\` | x | y |\n\nafter`;
    expect(tableRows(table)).toEqual([{ file: 'b.ts', mutator: 'StringLiteral' }]);
  });
});
