// One benchmark's chart: the median line, the confidence band (fill between CI low and high),
// the budget, change points, environment changes and superseded baselines as DOM markers over
// the plot (so they carry text and a title, and tests can find them), and the tooltip on hover.
// A superseded baseline also breaks the line and the band: each segment is its own uPlot series,
// so nothing is drawn from an old-method point to a new-method one.
//
// x is the commit's position in the history, not its date: the gate measures commits, change
// points are found in commit order, and a burst of merges in one afternoon would otherwise be
// squeezed into a sliver next to a quiet month. Commit numbers label the axis (axes.ts), with
// the date where it changes; the tooltip gives the commit.
import uPlot from "uplot";
import { formatInUnit, formatTick, type DisplayUnit } from "../src/site/display-units.ts";
import type { PageCommits, PageSeries } from "../src/site/page-model.ts";
import { X_INCREMENTS, commitRange, commitTicks, honestRange, spanText } from "./axes.ts";
import { el } from "./dom.ts";
import { formatStep, isWorse, shortSha } from "./format.ts";
import type { Tooltip } from "./tooltip.ts";

export const CHART_HEIGHT = 190;

const COLORS = {
  median: "#2563eb",
  band: "rgba(37, 99, 235, 0.16)",
  budget: "#dc2626",
};

export interface ChartContext {
  readonly commits: PageCommits;
  /** Commit indexes where the environment fingerprint changed, with a one-line description. */
  readonly environmentChanges: readonly { index: number; text: string }[];
  readonly tooltip: Tooltip;
}

/** Where a chart goes: its box, and the element that states its y range. */
export interface ChartPlace {
  readonly box: HTMLElement;
  readonly span: HTMLElement;
}

export function drawChart(
  place: ChartPlace,
  series: PageSeries,
  unit: DisplayUnit,
  width: number,
  context: ChartContext,
  onFirstDraw: () => void,
): uPlot {
  const { data, uSeries, bands } = chartSeries(series, unit.scale);
  const ticks = unit.whole ? X_INCREMENTS : undefined;
  const options: uPlot.Options = {
    width,
    height: CHART_HEIGHT,
    legend: { show: false },
    cursor: { points: { show: true, size: 6 }, drag: { x: true, y: false } },
    scales: { x: { time: false, range: commitRange }, y: { range: honestRange } },
    // Room on the right for the last date label, which is centred on the last commit.
    padding: [8, 36, 0, 0],
    axes: [
      {
        space: 90,
        incrs: X_INCREMENTS,
        values: (_u, splits) => commitTicks(context.commits.date, splits),
      },
      {
        label: unit.label,
        size: 58,
        // Whole counts step by whole counts: no "2.5 hits" tick between 2 and 3.
        ...(ticks === undefined ? {} : { incrs: ticks }),
        values: (_u, splits, _axis, _space, increment) =>
          splits.map((v) => formatTick(v, increment, unit)),
      },
    ],
    series: uSeries,
    bands,
    hooks: chartHooks(series, unit, context, markerElements(series, unit, context), {
      onFirstDraw,
      span: place.span,
    }),
  };
  return new uPlot(options, data, place.box);
}

/**
 * The ranges [start, end) of the series' arrays between its superseded baselines: one range
 * without breaks.
 */
function baselineSegments(series: PageSeries): [number, number][] {
  const n = series.median.length;
  const cuts = series.breaks
    .map((b) => b.index - series.start)
    .filter((c) => c > 0 && c < n)
    .sort((a, b) => a - b);
  const bounds = [0, ...cuts, n];
  return bounds.slice(1).map((end, i) => [bounds[i] as number, end]);
}

/**
 * The values of one segment in the display unit, null elsewhere. Scaled before uPlot sees them,
 * so it picks round increments in the unit the axis is labelled with (0.5 MiB, not 500,000 B).
 */
function within(
  values: readonly (number | null)[],
  [start, end]: [number, number],
  scale: number,
): (number | null)[] {
  if (start === 0 && end === values.length && scale === 1) return values as (number | null)[];
  return values.map((v, i) => (v !== null && i >= start && i < end ? v / scale : null));
}

/** The plotted columns (x, then CI band, median and budget when present) and their styles. */
function chartSeries(
  series: PageSeries,
  scale: number,
): {
  data: uPlot.AlignedData;
  uSeries: uPlot.Series[];
  bands: uPlot.Band[];
} {
  const n = series.median.length;
  const xs = Array.from({ length: n }, (_, i) => series.start + i);
  const data: uPlot.AlignedData = [xs];
  const uSeries: uPlot.Series[] = [{}];
  const bands: uPlot.Band[] = [];
  const segments = baselineSegments(series);
  const { low, high } = series;
  if (low !== null && high !== null) {
    // Drawn first, so the median lies over the band; the bounds themselves are not stroked.
    for (const segment of segments) {
      data.push(within(high, segment, scale), within(low, segment, scale));
      for (const label of ["CI high", "CI low"]) {
        uSeries.push({ label, stroke: "transparent", width: 0, points: { show: false } });
      }
      bands.push({ series: [uSeries.length - 2, uSeries.length - 1], fill: COLORS.band });
    }
  }
  // One line per baseline: a line spans the commits that did not run the benchmark (spanGaps),
  // never a superseded baseline.
  for (const segment of segments) {
    data.push(within(series.median, segment, scale));
    // Width 1 draws as a hairline, several times cheaper to rasterize than 1.5 in software.
    uSeries.push({ label: "median", stroke: COLORS.median, width: 1, spanGaps: true });
  }
  if (series.budget !== null) {
    data.push(within(series.budget, [0, n], scale));
    uSeries.push({
      label: "budget",
      stroke: COLORS.budget,
      width: 1,
      dash: [6, 4],
      points: { show: false },
      // A budget far above the data would flatten the line into the axis: leave it off the
      // y range then; the card's header names it.
      auto: budgetInRange(series),
    });
  }
  return { data, uSeries, bands };
}

/** The chart's interaction: markers over the plot, the tooltip on hover, a pin on click. */
function chartHooks(
  series: PageSeries,
  unit: DisplayUnit,
  context: ChartContext,
  markers: readonly Marker[],
  { onFirstDraw, span }: { onFirstDraw: () => void; span: HTMLElement },
): uPlot.Hooks.Arrays {
  let drawn = false;
  return {
    ready: [
      (u) => {
        u.over.append(...markers.map((m) => m.node));
        listenForPins(u, context.tooltip);
      },
    ],
    draw: [
      (u) => {
        placeMarkers(u, markers);
        // On every draw, zoomed or not: the range written out is the range drawn.
        const y = u.scales["y"];
        const text =
          y?.min === undefined || y.max === undefined ? "" : spanText(y.min, y.max, unit);
        if (span.textContent !== text) span.textContent = text;
        if (!drawn) {
          drawn = true;
          onFirstDraw();
        }
      },
    ],
    setCursor: [(u) => followCursor(u, series, unit, context.tooltip)],
  };
}

function listenForPins(u: uPlot, tooltip: Tooltip): void {
  let pressedAt: [number, number] | null = null;
  u.over.addEventListener("mousedown", (e) => (pressedAt = [e.clientX, e.clientY]));
  u.over.addEventListener("click", (e) => {
    // A drag selects a range to zoom into; only a click in place pins the tooltip.
    const moved =
      pressedAt !== null && Math.hypot(e.clientX - pressedAt[0], e.clientY - pressedAt[1]) > 3;
    if (!moved) tooltip.togglePin(u);
  });
  u.over.addEventListener("mouseleave", () => tooltip.hide(u));
}

function placeMarkers(u: uPlot, markers: readonly Marker[]): void {
  // From uPlot's own geometry: reading the DOM here would force a layout per chart.
  const plotWidth = u.bbox.width / uPlot.pxRatio;
  for (const m of markers) {
    const left = u.valToPos(m.index - 0.5, "x");
    m.node.hidden = !(left >= 0 && left <= plotWidth);
    m.node.style.left = `${left}px`;
  }
}

function followCursor(u: uPlot, series: PageSeries, unit: DisplayUnit, tooltip: Tooltip): void {
  const idx = u.cursor.idx;
  if (idx === null || idx === undefined || u.cursor.left === undefined) {
    tooltip.hide(u);
    return;
  }
  const rect = u.over.getBoundingClientRect();
  const top = u.cursor.top ?? 0;
  tooltip.show(series, unit, series.start + idx, rect.left + u.cursor.left, rect.top + top, u);
}

function budgetInRange(series: PageSeries): boolean {
  const finite = (values: readonly (number | null)[] | null): number[] =>
    (values ?? []).filter((v): v is number => v !== null && Number.isFinite(v));
  const data = [...finite(series.median), ...finite(series.high)];
  const budgets = finite(series.budget);
  if (data.length === 0 || budgets.length === 0) return true;
  const top = Math.max(...data);
  return Math.max(...budgets) <= 2 * top;
}

interface Marker {
  readonly index: number;
  readonly node: HTMLElement;
}

function markerElements(series: PageSeries, unit: DisplayUnit, context: ChartContext): Marker[] {
  const end = series.start + series.median.length;
  const out: Marker[] = [];
  for (const change of context.environmentChanges) {
    if (change.index <= series.start || change.index >= end) continue;
    const node = el("div", "marker env");
    node.title = `environment changed at ${shortSha(context.commits.sha[change.index])}: ${change.text}`;
    node.append(el("span", "marker-label", "env"));
    out.push({ index: change.index, node });
  }
  for (const cut of series.breaks) {
    const node = el("div", "marker break");
    node.title = `new baseline from ${shortSha(context.commits.sha[cut.index])}, not compared with the earlier points: ${cut.reason}`;
    node.append(el("span", "marker-label", "new baseline"));
    out.push({ index: cut.index, node });
  }
  const step = series.latestStep;
  if (step !== null) {
    const node = el("div", `marker latest ${step.worse ? "worse" : "better"}`);
    const text = formatStep(step.step);
    node.title =
      `latest commit ${shortSha(context.commits.sha[step.index])}: ` +
      `${formatInUnit(step.before, unit)} → ${formatInUnit(step.after, unit)} (${text})`;
    node.append(el("span", "marker-label", `${text} here`));
    out.push({ index: step.index, node });
  }
  for (const change of series.changes) {
    const worse = isWorse(change.step, series.direction);
    const node = el("div", `marker change ${worse ? "worse" : "better"}`);
    const step = formatStep(change.step);
    node.title =
      `change point at ${shortSha(context.commits.sha[change.index])}: ` +
      `${formatInUnit(change.before, unit)} → ${formatInUnit(change.after, unit)} (${step})`;
    node.append(el("span", "marker-label", step));
    out.push({ index: change.index, node });
  }
  return out;
}
