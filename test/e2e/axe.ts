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
