/**
 * axe-core in the browser tests: every WCAG 2.2 A/AA violation on a page, whatever axe calls its impact (a minor one
 * is still a person who cannot use the page). axe is injected as a script, so the page's context needs
 * `bypassCSP: true` (its Content-Security-Policy allows only its own scripts).
 */
import { createRequire } from 'node:module';
import type { AxeResults, RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';

const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * The violations axe finds on `page` once its entrance animations have ended (a toast fading in has, for a moment,
 * the contrast of its half-way colours), one line each: rule, impact, element, summary.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => animation.effect?.getTiming().iterations === Infinity || animation.playState !== 'running'),
  );
  await page.addScriptTag({ path: AXE_SCRIPT });
  const violations = await page.evaluate(async (tags) => {
    const axe = (globalThis as unknown as { axe: { run(context: Document, options: RunOptions): Promise<AxeResults> } }).axe;
    return (await axe.run(document, { runOnly: { type: 'tag', values: tags } })).violations;
  }, WCAG_22_AA);
  return violations.flatMap((violation) =>
    violation.nodes.map(
      (node) => `${violation.id} (${violation.impact ?? 'no impact given'}): ${node.target.join(' ')} ${node.failureSummary ?? ''}`,
    ),
  );
}

/** The widths every person's screens are checked at: a phone and a laptop (px). */
const AXE_WIDTHS = [375, 1280] as const;

/**
 * The violations on `page` at each of AXE_WIDTHS, one line each prefixed with `name` and the width; the page is left
 * at the width it had. Reuses the journey's page: no browser is launched for it.
 */
export async function axeViolationsAtWidths(page: Page, name: string): Promise<string[]> {
  const size = page.viewportSize() ?? { width: 1280, height: 900 };
  const found: string[] = [];
  for (const width of AXE_WIDTHS) {
    await page.setViewportSize({ width, height: size.height });
    found.push(...(await axeViolations(page)).map((line) => `${name} at ${width} px: ${line}`));
  }
  await page.setViewportSize(size);
  return found;
}
