/**
 * Ties each docs/statechart/<machine>.svg to the diagram it was drawn from: the SVG ends with a comment naming
 * the Mermaid version and the sha256 of the diagram's source in docs/statechart.md. A unit test compares the
 * stamps with the current diagrams, so a stale SVG fails `npm test` without starting a browser.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
/** Mermaid's browser bundle, loaded into Chromium to draw the SVGs. */
export const MERMAID_SCRIPT = require.resolve('mermaid/dist/mermaid.min.js');
const MERMAID_VERSION = (JSON.parse(readFileSync(join(dirname(MERMAID_SCRIPT), '..', 'package.json'), 'utf8')) as { version: string })
  .version;

/** Each ```mermaid block of `markdown` with the machine id its states carry (checkout, paymentSuccess). */
export function mermaidBlocks(markdown: string): { name: string; code: string }[] {
  return [...markdown.matchAll(/```mermaid\n([\s\S]*?)```/g)].map((match) => {
    const code = match[1] ?? '';
    const name = /state "[^"]+" as ([A-Za-z]+)_/.exec(code)?.[1] ?? 'chart';
    return { name, code };
  });
}

/** The comment an SVG drawn from `code` ends with; another Mermaid version is another drawing. */
export function svgStamp(code: string): string {
  const digest = createHash('sha256').update(code).digest('hex');
  return `<!-- drawn by mermaid ${MERMAID_VERSION} from diagram sha256:${digest} -->`;
}

/** The stamp an SVG file carries, if any. */
export function stampOf(svg: string): string | undefined {
  return /<!-- drawn by mermaid [^ ]+ from diagram sha256:[0-9a-f]{64} -->/.exec(svg)?.[0];
}
