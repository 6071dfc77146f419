/**
 * The MRR chart (uPlot, docs/decisions/0028): a line of the MRR at the end of each day, week or month. uPlot and
 * its stylesheet are fetched when the chart first draws, so they are a chunk of their own that only the
 * dashboard loads (never the checkout's). The drawing is hidden from screen readers: the dashboard shows the same
 * points as a table beside it.
 */
import { useEffect, useRef } from 'react';
import type { MrrPoint } from '../../contract/admin';
import { formatDollars } from '../../domain/pricing';
import { colors } from '../theme';

const HEIGHT = 240;

/** Dollars on the axis and in the cursor's value, whole dollars (the figures above give the cents). */
const dollars = (value: number | null) => (value === null ? '—' : formatDollars(Math.round(value) * 100));

export function MrrChart({ points }: { points: MrrPoint[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let cancelled = false;
    let destroy = () => {};
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')])
      .then(([{ default: UPlot }]) => {
        if (cancelled) return;
        const xs = points.map((point) => Date.parse(`${point.date}T00:00:00Z`) / 1000);
        const ys = points.map((point) => point.mrrCents / 100);
        const chart = new UPlot(
          {
            width: element.clientWidth || 600,
            height: HEIGHT,
            tzDate: (seconds) => UPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
            legend: { show: false },
            scales: { x: { time: true }, y: { range: (_, min, max) => [0, Math.max(max, min, 1) * 1.1] } },
            series: [
              {},
              { label: 'MRR', stroke: colors.brand, width: 2, fill: 'rgba(29, 78, 216, 0.08)', value: (_, value) => dollars(value) },
            ],
            axes: [
              { stroke: colors.text },
              { stroke: colors.text, size: 72, values: (_, splits) => splits.map((split) => dollars(split)) },
            ],
          },
          [xs, ys],
          element,
        );
        const observer =
          typeof ResizeObserver === 'undefined'
            ? null
            : new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: HEIGHT }));
        observer?.observe(element);
        destroy = () => {
          observer?.disconnect();
          chart.destroy();
        };
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      destroy();
    };
  }, [points]);
  return <div ref={box} aria-hidden="true" data-testid="mrr-chart" style={{ minHeight: HEIGHT }} />;
}
