/**
 * Renders the Mermaid diagrams of docs/statechart.md to SVG files beside it (docs/statechart/<machine>.svg), so the
 * charts open in any browser or image viewer without a Mermaid renderer. Mermaid runs in Debian's Chromium
 * (CHROMIUM_PATH, default /usr/bin/chromium) through playwright-core; nothing is fetched from the network.
 * Run by `npm run docs:statechart` after the Markdown is written.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { STATECHART_DOC_PATH } from './statechart-docs';

const require = createRequire(import.meta.url);
const MERMAID_SCRIPT = require.resolve('mermaid/dist/mermaid.min.js');
export const STATECHART_SVG_DIR = join(dirname(STATECHART_DOC_PATH), 'statechart');

/** Each ```mermaid block of `markdown` with the machine id its states carry (checkout, paymentSuccess). */
export function mermaidBlocks(markdown: string): { name: string; code: string }[] {
  return [...markdown.matchAll(/```mermaid\n([\s\S]*?)```/g)].map((match) => {
    const code = match[1] ?? '';
    const name = /state "[^"]+" as ([A-Za-z]+)_/.exec(code)?.[1] ?? 'chart';
    return { name, code };
  });
}

/**
 * Renders every diagram of the statechart document into `outDir`; returns the files written.
 * @throws when Chromium cannot start or Mermaid refuses a diagram.
 */
export async function renderStatechartSvgs(outDir: string = STATECHART_SVG_DIR): Promise<string[]> {
  const blocks = mermaidBlocks(readFileSync(STATECHART_DOC_PATH, 'utf8'));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><html><body></body></html>');
    await page.addScriptTag({ path: MERMAID_SCRIPT });
    mkdirSync(outDir, { recursive: true });
    const written: string[] = [];
    for (const { name, code } of blocks) {
      const svg = await page.evaluate(
        async ([id, source]) => {
          const mermaid = (
            globalThis as unknown as {
              mermaid: { initialize(options: object): void; render(id: string, code: string): Promise<{ svg: string }> };
            }
          ).mermaid;
          mermaid.initialize({ startOnLoad: false, theme: 'default', securityLevel: 'strict', deterministicIds: true, htmlLabels: false });
          return (await mermaid.render(id, source)).svg;
        },
        [name, code] as const,
      );
      const file = join(outDir, `${name}.svg`);
      writeFileSync(file, `${svg}\n`);
      written.push(file);
    }
    return written;
  } finally {
    await browser.close();
  }
}

/** The words an SVG chart shows (its text elements), in order: what a reader sees, whatever the layout. */
export function svgTexts(svg: string): string[] {
  return [...svg.matchAll(/<tspan[^>]*>([^<]*)<\/tspan>|<text[^>]*>([^<]+)<\/text>/g)]
    .map((match) => (match[1] ?? match[2] ?? '').trim())
    .filter(Boolean);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const file of await renderStatechartSvgs()) console.log(`Wrote ${file}`);
}
