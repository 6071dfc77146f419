/**
 * `npx tsx scripts/comment-density.ts <dir> [--exclude <sub-path>]… [--by-file]`: how much of a TypeScript tree is
 * comments. Counts, per top-level folder of `<dir>` and in total, the non-blank lines of its .ts/.tsx files and
 * those of them that hold only comment (line and block comments, JSDoc included; a line of code with a comment
 * after it counts as code). Comments are found by TypeScript's own parser, so `//` inside a string or a template
 * is not one. `--by-file` lists the files instead, most comment lines first.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

interface Count {
  lines: number;
  comments: number;
}

/** The non-blank lines of `text` and how many of them hold nothing but comment. */
function countLines(text: string, fileName: string): Count {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const inComment = new Uint8Array(text.length);
  const visit = (node: ts.Node) => {
    const children = node.getChildren(file).filter((child) => !ts.isJSDoc(child));
    if (children.length > 0) return children.forEach(visit);
    // A token: the comments are in the trivia between the previous token and this one.
    for (const range of ts.getLeadingCommentRanges(text, node.pos) ?? []) inComment.fill(1, range.pos, range.end);
  };
  visit(file);
  const count: Count = { lines: 0, comments: 0 };
  let start = 0;
  for (const line of text.split('\n')) {
    let hasText = false;
    let allComment = true;
    for (let i = 0; i < line.length; i++) {
      if (/\s/.test(line[i] ?? '')) continue;
      hasText = true;
      if (!inComment[start + i]) allComment = false;
    }
    if (hasText) {
      count.lines++;
      if (allComment) count.comments++;
    }
    start += line.length + 1;
  }
  return count;
}

function main(argv: string[]) {
  const root = argv.find((arg, index) => !arg.startsWith('--') && argv[index - 1] !== '--exclude');
  if (!root) {
    console.error('usage: npx tsx scripts/comment-density.ts <dir> [--exclude <sub-path>]… [--by-file]');
    process.exit(2);
  }
  const excluded = argv.flatMap((arg, index) => (argv[index - 1] === '--exclude' ? [arg.replace(/\/$/, '')] : []));
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.d.ts') && !name.split(sep).includes('node_modules'))
    .filter((name) => !excluded.some((path) => name === path || name.startsWith(`${path}/`)))
    .sort();
  const rows = new Map<string, Count>();
  const total: Count = { lines: 0, comments: 0 };
  for (const name of files) {
    const count = countLines(readFileSync(join(root, name), 'utf8'), name);
    const parts = name.split(sep);
    const key = argv.includes('--by-file') ? relative('.', join(root, name)) : parts.length > 1 ? `${parts[0]}/` : '(files at the top)';
    const row = rows.get(key) ?? { lines: 0, comments: 0 };
    row.lines += count.lines;
    row.comments += count.comments;
    rows.set(key, row);
    total.lines += count.lines;
    total.comments += count.comments;
  }
  const percent = ({ lines, comments }: Count) => (lines ? `${((100 * comments) / lines).toFixed(1)} %` : '-');
  const ordered = argv.includes('--by-file') ? [...rows].sort(([, a], [, b]) => b.comments - a.comments) : [...rows];
  const table = [...ordered, ['total', total] as const].map(([name, count]) => [name, count.lines, count.comments, percent(count)]);
  const header = ['folder', 'non-blank', 'comment', 'share'];
  const widths = header.map((title, column) => Math.max(title.length, ...table.map((row) => String(row[column]).length)));
  const format = (cells: (string | number)[]) =>
    cells
      .map((cell, column) => (column === 0 ? String(cell).padEnd(widths[column] ?? 0) : String(cell).padStart(widths[column] ?? 0)))
      .join('  ');
  console.log(format(header));
  for (const row of table) console.log(format(row));
}

main(process.argv.slice(2));
