/**
 * Renders the Mermaid diagrams of docs/statechart.md to SVG files beside it (docs/statechart/<machine>.svg), so the
 * charts open in any browser or image viewer without a Mermaid renderer. Mermaid runs in Debian's Chromium
 * (CHROMIUM_PATH, default /usr/bin/chromium) through playwright-core; nothing is fetched from the network.
 * Run by `npm run docs:statechart` after the Markdown is written. An SVG whose stamp (./statechart/svgStamp.ts)
 * matches its diagram is left as it is, and the SVG of a machine no longer drawn is removed, so the same machines
 * always leave the same files.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { STATECHART_DOC_PATH, STATECHART_SVG_DIR } from './statechart-docs';
import { MERMAID_SCRIPT, mermaidBlocks, stampOf, svgStamp } from './statechart/svgStamp';

/**
 * Renders every diagram of the statechart document into `outDir`; returns the files written. With `onlyChanged`,
 * a file already stamped with its diagram is kept and not returned.
 * @throws when Chromium cannot start or Mermaid refuses a diagram.
 */
export async function renderStatechartSvgs(
  outDir: string = STATECHART_SVG_DIR,
  { onlyChanged = false }: { onlyChanged?: boolean } = {},
): Promise<string[]> {
  const blocks = mermaidBlocks(readFileSync(STATECHART_DOC_PATH, 'utf8'));
  mkdirSync(outDir, { recursive: true });
  const drawn = new Set(blocks.map(({ name }) => `${name}.svg`));
  for (const file of readdirSync(outDir)) {
    if (file.endsWith('.svg') && !drawn.has(file)) rmSync(join(outDir, file));
  }
  const current = (name: string, code: string): boolean => {
    const file = join(outDir, `${name}.svg`);
    return existsSync(file) && stampOf(readFileSync(file, 'utf8')) === svgStamp(code);
  };
  const toDraw = onlyChanged ? blocks.filter(({ name, code }) => !current(name, code)) : blocks;
  if (toDraw.length === 0) return [];
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><html><body></body></html>');
    await page.addScriptTag({ path: MERMAID_SCRIPT });
    const written: string[] = [];
    for (const { name, code } of toDraw) {
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
      writeFileSync(file, `${svg}\n${svgStamp(code)}\n`);
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
  const written = await renderStatechartSvgs(STATECHART_SVG_DIR, { onlyChanged: true });
  for (const file of written) console.log(`Wrote ${file}`);
  if (written.length === 0) console.log(`${STATECHART_SVG_DIR}: every SVG is current`);
}
