import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderStatechartDoc, STATECHART_DOC_PATH } from '../../scripts/statechart-docs';

describe('docs/statechart.md (a diagram that cannot drift)', () => {
  it('is what `npm run docs:statechart` generates from the machines', () => {
    const committed = readFileSync(STATECHART_DOC_PATH, 'utf8');
    expect(committed, 'docs/statechart.md is stale: run `npm run docs:statechart`').toBe(renderStatechartDoc());
  });

  it('draws every state of both machines', () => {
    const doc = renderStatechartDoc();
    for (const state of ['init', 'idle', 'pendingSeats', 'updating', 'submitting', 'finalizing', 'success']) {
      expect(doc).toContain(`state "${state}" as checkout_${state}`);
    }
    for (const state of ['loading', 'finalizingReturn', 'noData', 'corrupt', 'returnFailed', 'ready', 'redirecting']) {
      expect(doc).toContain(`state "${state}" as paymentSuccess_${state}`);
    }
  });
});
