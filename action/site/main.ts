// The history page's app: reads the model benchgate-data.js left in window.BENCHGATE_DATA,
// builds the header with the latest commit (latest.ts), the filter, the cards of what moved at
// that commit, regressions first, then one card per benchmark grouped by suite, and hands the
// charts to the scheduler. Every string from the data goes through textContent (dom.ts).
import "uplot/dist/uPlot.min.css";
import "./style.css";
import type uPlot from "uplot";
import { PAGE_MODEL_VERSION, type PageModel, type PageSeries } from "../src/site/page-model.ts";
import { buildCard, type Card, type Plot } from "./cards.ts";
import { CHART_HEIGHT, drawChart, type ChartContext } from "./chart.ts";
import { el } from "./dom.ts";
import { nameMatcher } from "./filter.ts";
import { longDate, shortSha } from "./format.ts";
import { latestPanel } from "./latest.ts";
import { scheduleDrawing, type DrawTarget } from "./scheduler.ts";
import { createTooltip } from "./tooltip.ts";

declare global {
  interface Window {
    BENCHGATE_DATA?: unknown;
  }
}

interface Group {
  /** The suite of its cards; null for the latest commit's group, which mixes suites. */
  readonly suite: string | null;
  readonly node: HTMLElement;
  readonly details: HTMLDetailsElement;
  readonly count: HTMLElement;
  readonly cards: Card[];
}

interface Controls {
  readonly node: HTMLElement;
  readonly query: HTMLInputElement;
  readonly suite: HTMLSelectElement;
  readonly shown: HTMLElement;
}

/** The drawn charts, for resizing. */
const drawn = new Map<Plot, uPlot>();

function start(): void {
  const app = document.getElementById("app");
  if (app === null) return;
  const model = window.BENCHGATE_DATA as PageModel | undefined;
  if (model === undefined || model.version !== PAGE_MODEL_VERSION) {
    app.append(
      el(
        "p",
        "error",
        "The benchmark data (benchgate-data.js) did not load or is of another version.",
      ),
    );
    return;
  }
  document.title = model.title;
  const envText = describeEnvironmentChanges(model);
  const context: ChartContext = {
    commits: model.commits,
    environmentChanges: envText,
    tooltip: createTooltip(model.commits),
  };

  const groups = buildGroups(model);
  // Every suite with a card, including those whose cards all sit in the latest commit's group.
  const suites = [...new Set(groups.flatMap((g) => g.cards.map((c) => c.plot.series.suite)))].sort(
    (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  );
  const controls = buildControls(groups, suites);
  app.append(header(model, envText), controls.node, ...groups.map((g) => g.node));

  const cards = groups.flatMap((g) => g.cards);
  const scheduler = scheduleDrawing(drawTargets(cards, context));
  const apply = (): void => {
    applyFilter(groups, cards, controls);
    scheduler.wake();
  };
  restoreFilter(suites, controls);
  controls.query.addEventListener("input", apply);
  controls.suite.addEventListener("change", apply);
  for (const g of groups) g.details.addEventListener("toggle", () => scheduler.wake());
  for (const card of cards) {
    const fold = card.fold;
    fold?.addEventListener("toggle", () => {
      if (fold.open) drawNow(card.secondary, context);
    });
  }
  apply();
  resizeChartsWith(app);
}

/** The cards: one per lead series, its secondary series folded in; each card in one group. */
function buildGroups(model: PageModel): Group[] {
  const secondaries = new Map<number, PageSeries[]>();
  model.series.forEach((s) => {
    if (s.lead !== null) listIn(secondaries, s.lead).push(s);
  });
  const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  const card = (i: number, withSuite = false): Card => {
    const own = (secondaries.get(i) ?? []).sort((a, b) => byText(a.id, b.id));
    return buildCard(i, model.series[i] as PageSeries, own, model.commits, withSuite);
  };
  const changed = model.latest?.changed ?? [];
  const first = new Set(changed);
  const groups: Group[] = [];
  if (model.latest !== null && changed.length > 0) {
    const sha = shortSha(model.commits.sha[model.latest.index]);
    const g = group(null, `Moved at the latest commit (${sha}), regressions first`);
    for (const i of changed) g.cards.push(card(i, true));
    groups.push(g);
  }
  const bySuite = new Map<string, number[]>();
  model.series.forEach((s, i) => {
    if (s.lead === null && !first.has(i)) listIn(bySuite, s.suite).push(i);
  });
  for (const suite of [...bySuite.keys()].sort(byText)) {
    const g = group(suite, suite);
    const members = (bySuite.get(suite) ?? []).sort((a, b) => {
      const [x, y] = [model.series[a] as PageSeries, model.series[b] as PageSeries];
      return byText(x.id, y.id) || byText(x.unit, y.unit);
    });
    for (const i of members) g.cards.push(card(i));
    groups.push(g);
  }
  for (const g of groups) g.node.querySelector(".cards")?.append(...g.cards.map((c) => c.node));
  return groups;
}

/** The list under `key`, made on first use (a push, not a copy per member: 10,000 series). */
function listIn<K, V>(map: Map<K, V[]>, key: K): V[] {
  let list = map.get(key);
  if (list === undefined) map.set(key, (list = []));
  return list;
}

function group(suite: string | null, label: string): Group {
  const details = el("details", "group");
  details.open = true;
  const summary = el("summary");
  const count = el("span", "count");
  summary.append(el("span", suite === null ? "suite latest-group" : "suite", label), count);
  details.append(summary, el("div", "cards"));
  const node = el("section", suite === null ? "suite-group moved-group" : "suite-group");
  node.append(details);
  return { suite, node, details, count, cards: [] };
}

/** One line per environment change, for the header and the chart markers. */
function describeEnvironmentChanges(model: PageModel): { index: number; text: string }[] {
  return model.environmentChanges.map((c) => ({
    index: c.index,
    text:
      c.fields.length === 0
        ? "fingerprint changed"
        : c.fields.map((f) => `${f.name} ${f.before} → ${f.after}`).join("; "),
  }));
}

/** What the scheduler draws: each card's own chart, drawn into its box on demand. */
function drawTargets(cards: readonly Card[], context: ChartContext): DrawTarget[] {
  return cards.flatMap((card) => {
    const plot = card.plot;
    const place = plot.place;
    if (place === null) return [];
    return [
      {
        box: place.box,
        draw: (width, done) =>
          drawn.set(plot, drawChart(place, plot.series, plot.unit, width, context, done)),
      },
    ];
  });
}

/** Secondary charts, drawn when their fold opens: a handful, at once. */
function drawNow(plots: readonly Plot[], context: ChartContext): void {
  const todo = plots.filter((p) => p.place !== null && !drawn.has(p));
  // Every width before any chart: reading one after a chart went in forces a layout each time.
  const widths = todo.map((p) => p.place?.box.clientWidth ?? 0);
  todo.forEach((p, i) => {
    const width = widths[i] as number;
    if (p.place !== null && width > 0)
      drawn.set(
        p,
        drawChart(p.place, p.series, p.unit, width, context, () => undefined),
      );
  });
}

/** Shows the cards the filter matches, counts them, and keeps the filter in the URL's hash. */
function applyFilter(groups: readonly Group[], cards: readonly Card[], controls: Controls): void {
  const matches = nameMatcher(controls.query.value);
  const suite = controls.suite.value;
  let shown = 0;
  for (const g of groups) {
    let inGroup = 0;
    for (const card of g.cards) {
      const visible =
        (suite === "" || suite === card.plot.series.suite) &&
        (matches(card.plot.series.id) || card.secondary.some((p) => matches(p.series.id)));
      card.node.hidden = !visible;
      if (visible) inGroup++;
    }
    g.node.hidden = inGroup === 0;
    g.count.textContent = `${inGroup} of ${g.cards.length}`;
    shown += inGroup;
  }
  controls.shown.textContent = `${shown} of ${cards.length} benchmarks`;
  const state = new URLSearchParams();
  if (controls.query.value !== "") state.set("q", controls.query.value);
  if (suite !== "") state.set("suite", suite);
  history.replaceState(
    null,
    "",
    `${location.pathname}${location.search}${state.size === 0 ? "" : `#${state.toString()}`}`,
  );
}

/** The filter from the URL's hash, so a shared link opens on the same benchmarks. */
function restoreFilter(suites: readonly string[], controls: Controls): void {
  const initial = new URLSearchParams(location.hash.slice(1));
  controls.query.value = initial.get("q") ?? "";
  if (suites.includes(initial.get("suite") ?? ""))
    controls.suite.value = initial.get("suite") ?? "";
}

/** Charts follow the width of their cards; one resize pass per frame at most. */
function resizeChartsWith(app: HTMLElement): void {
  let pending = false;
  let width = -1;
  new ResizeObserver((entries) => {
    // The page grows as charts and folds open; only a new width resizes charts.
    const now = entries.at(-1)?.contentRect.width ?? width;
    if (pending || now === width) return;
    width = now;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      const sized = [...drawn].map(([plot, chart]) => ({
        chart,
        width: plot.place?.box.clientWidth ?? 0,
      }));
      for (const { chart, width } of sized)
        if (width > 0 && width !== chart.width) chart.setSize({ width, height: CHART_HEIGHT });
    });
  }).observe(app);
}

function header(model: PageModel, env: readonly { index: number; text: string }[]): HTMLElement {
  const node = el("header", "page-head");
  node.append(el("h1", undefined, model.title));
  const n = model.commits.sha.length;
  const first = model.commits.date[0];
  const last = model.commits.date[n - 1];
  const facts =
    `${model.series.length} benchmarks · ${n} commits` +
    (n > 0 ? ` · ${longDate(first)} – ${longDate(last)}` : "") +
    (model.updatedAt !== null ? ` · updated ${longDate(model.updatedAt)}` : "");
  node.append(el("p", "facts", facts));
  const latest = latestPanel(model);
  if (latest !== null) node.append(latest);
  const legend = el("p", "legend");
  legend.append(
    el("span", "key median", "median"),
    el("span", "key band", "confidence interval"),
    el("span", "key budget", "budget"),
    el("span", "key latest", "latest commit's step"),
    el("span", "key change", "change point (step between segment medians)"),
    el("span", "key env", "environment changed"),
    el("span", "key break", "new baseline (method changed; not compared across)"),
    el("span", "key hint", "drag to zoom, double-click to reset, click a point to pin its commit"),
  );
  node.append(legend);
  if (env.length > 0) {
    const details = el("details", "env-changes");
    details.append(
      el(
        "summary",
        undefined,
        `The environment changed ${env.length === 1 ? "once" : `${env.length} times`}`,
      ),
    );
    const list = el("ul");
    for (const change of env) {
      list.append(
        el(
          "li",
          undefined,
          `commit ${change.index + 1} (${shortSha(model.commits.sha[change.index])}): ${change.text}`,
        ),
      );
    }
    details.append(list);
    node.append(details);
  }
  if (model.breaks.length > 0) node.append(breakList(model));
  return node;
}

/** Every superseded baseline as marked: commit, glob, how many series, the reason. */
function breakList(model: PageModel): HTMLElement {
  const n = model.breaks.length;
  const details = el("details", "break-marks");
  details.append(
    el("summary", undefined, `${n === 1 ? "One baseline was" : `${n} baselines were`} superseded`),
  );
  const list = el("ul");
  for (const mark of model.breaks) {
    const matched = `${mark.series} ${mark.series === 1 ? "benchmark" : "benchmarks"}`;
    list.append(
      el(
        "li",
        undefined,
        `commit ${mark.index + 1} (${shortSha(model.commits.sha[mark.index])}): ${mark.benchmark} (${matched}): ${mark.reason}`,
      ),
    );
  }
  details.append(list);
  return details;
}

function buildControls(groups: readonly Group[], suites: readonly string[]): Controls {
  const node = el("div", "controls");
  const query = el("input");
  query.type = "search";
  query.placeholder = "name, or a glob such as decode/*";
  query.setAttribute("aria-label", "Filter benchmarks by name");
  const suite = el("select");
  suite.setAttribute("aria-label", "Filter by suite");
  suite.append(new Option("all suites", ""));
  for (const name of suites) suite.append(new Option(name, name));
  const shown = el("span", "shown");
  const collapse = el("button", undefined, "collapse all");
  collapse.type = "button";
  collapse.addEventListener("click", () => {
    const open = groups.some((g) => g.details.open);
    for (const g of groups) g.details.open = !open;
    collapse.textContent = open ? "expand all" : "collapse all";
  });
  const queryLabel = el("label", undefined, "Benchmark ");
  queryLabel.append(query);
  const suiteLabel = el("label", undefined, "Suite ");
  suiteLabel.append(suite);
  node.append(queryLabel, suiteLabel, collapse, shown);
  return { node, query, suite, shown };
}

start();
