// The history page's app: reads the model benchgate-data.js left in window.BENCHGATE_DATA,
// builds the header, the filter and one card per benchmark grouped by suite, and hands the
// charts to the scheduler. Every string from the data goes through textContent (dom.ts).
import "uplot/dist/uPlot.min.css";
import "./style.css";
import type uPlot from "uplot";
import { chooseDisplayUnit, formatInUnit, type DisplayUnit } from "../src/site/display-units.ts";
import {
  PAGE_MODEL_VERSION,
  type PageCommits,
  type PageModel,
  type PageSeries,
} from "../src/site/page-model.ts";
import { CHART_HEIGHT, drawChart, type ChartContext } from "./chart.ts";
import { el } from "./dom.ts";
import { nameMatcher } from "./filter.ts";
import { formatStep, isWorse, longDate, shortSha } from "./format.ts";
import { scheduleDrawing, type DrawTarget } from "./scheduler.ts";
import { createTooltip } from "./tooltip.ts";

declare global {
  interface Window {
    BENCHGATE_DATA?: unknown;
  }
}

interface Card {
  readonly series: PageSeries;
  /** The unit its chart, tooltip and texts show values in, chosen once from its medians. */
  readonly unit: DisplayUnit;
  readonly node: HTMLElement;
  readonly group: Group;
  chart: uPlot | null;
}

interface Group {
  readonly suite: string;
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

  const groups = groupBySuite(model.series, model.commits);
  const controls = buildControls(groups);
  app.append(header(model, envText), controls.node, ...groups.map((g) => g.node));

  const cards = groups.flatMap((g) => g.cards);
  const scheduler = scheduleDrawing(drawTargets(cards, context));
  const apply = (): void => {
    applyFilter(groups, cards, controls);
    scheduler.wake();
  };
  restoreFilter(groups, controls);
  controls.query.addEventListener("input", apply);
  controls.suite.addEventListener("change", apply);
  for (const g of groups) g.details.addEventListener("toggle", () => scheduler.wake());
  apply();
  resizeChartsWith(app, cards);
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

/** What the scheduler draws: each card that has a chart box, drawn into it on demand. */
function drawTargets(cards: readonly Card[], context: ChartContext): DrawTarget[] {
  return cards.flatMap((card) => {
    const box = card.node.querySelector<HTMLElement>(".chart");
    if (box === null) return [];
    return [
      {
        box,
        draw: (width, done) =>
          (card.chart = drawChart(box, card.series, card.unit, width, context, done)),
      },
    ];
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
      const visible = (suite === "" || suite === g.suite) && matches(card.series.id);
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
function restoreFilter(groups: readonly Group[], controls: Controls): void {
  const initial = new URLSearchParams(location.hash.slice(1));
  controls.query.value = initial.get("q") ?? "";
  if (groups.some((g) => g.suite === initial.get("suite")))
    controls.suite.value = initial.get("suite") ?? "";
}

/** Charts follow the width of their cards; one resize pass per frame at most. */
function resizeChartsWith(app: HTMLElement, cards: readonly Card[]): void {
  let pending = false;
  new ResizeObserver(() => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      for (const card of cards) {
        const box = card.node.querySelector(".chart");
        if (
          card.chart !== null &&
          box !== null &&
          box.clientWidth > 0 &&
          box.clientWidth !== card.chart.width
        )
          card.chart.setSize({ width: box.clientWidth, height: CHART_HEIGHT });
      }
    });
  }).observe(app);
}

function groupBySuite(series: readonly PageSeries[], commits: PageCommits): Group[] {
  const bySuite = new Map<string, PageSeries[]>();
  for (const s of series) bySuite.set(s.suite, [...(bySuite.get(s.suite) ?? []), s]);
  const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return [...bySuite.keys()].sort(byText).map((suite) => {
    const details = el("details", "group");
    details.open = true;
    const summary = el("summary");
    const count = el("span", "count");
    summary.append(el("span", "suite", suite), count);
    const list = el("div", "cards");
    details.append(summary, list);
    const node = el("section", "suite-group");
    node.append(details);
    const group: Group = { suite, node, details, count, cards: [] };
    const members = (bySuite.get(suite) ?? []).sort(
      (a, b) => byText(a.id, b.id) || byText(a.unit, b.unit),
    );
    for (const s of members) {
      const unit = chooseDisplayUnit(s.unit, s.median);
      const card: Card = { series: s, unit, node: cardNode(s, unit, commits), group, chart: null };
      group.cards.push(card);
      list.append(card.node);
    }
    return group;
  });
}

function cardNode(s: PageSeries, unit: DisplayUnit, commits: PageCommits): HTMLElement {
  const card = el("article", "card");
  const head = el("header", "card-head");
  head.append(el("h3", "name", s.id));
  const badges = el("div", "badges");
  badges.append(
    el(
      "span",
      "badge direction",
      s.direction === "bigger_is_better" ? "↑ higher is better" : "↓ lower is better",
    ),
    unitBadge(s, unit),
  );
  if (s.importedFrom !== null)
    badges.append(
      el("span", "badge imported", `imported from github-action-benchmark (${s.importedFrom})`),
    );
  const latest = [...s.median].reverse().find((v) => v !== null) ?? null;
  badges.append(el("span", "badge latest", `latest ${formatInUnit(latest, unit)}`));
  const budgets = (s.budget ?? []).filter((v): v is number => v !== null);
  const budget = budgets.at(-1);
  if (budget !== undefined)
    badges.append(el("span", "badge budget", `budget ${formatInUnit(budget, unit)}`));
  head.append(badges);
  card.append(head);
  // A series in the catalogue whose commits were all dropped by retention has nothing to draw.
  if (s.median.some((v) => v !== null)) card.append(el("div", "chart"));
  else card.append(el("p", "empty", "No results in the commits kept."));
  if (s.breaks.length > 0) {
    const list = el("p", "breaks");
    list.append(el("span", "breaks-title", "New baseline: "));
    s.breaks.forEach((b, i) => {
      const item = el("span", "break-note");
      item.textContent = `${i > 0 ? " · " : ""}from #${b.index + 1} (${shortSha(commits.sha[b.index])}): ${b.reason}`;
      list.append(item);
    });
    card.append(list);
  }
  if (s.changes.length > 0) {
    const list = el("p", "changes");
    list.append(el("span", "changes-title", "Change points: "));
    s.changes.forEach((c, i) => {
      const item = el("span", `change ${isWorse(c.step, s.direction) ? "worse" : "better"}`);
      item.textContent = `${i > 0 ? " · " : ""}#${c.index + 1} ${formatStep(c.step)} (${formatInUnit(c.before, unit)} → ${formatInUnit(c.after, unit)})`;
      list.append(item);
    });
    card.append(list);
  }
  return card;
}

/** The unit the chart is drawn in; the recorded one, when it differs, on hover. */
function unitBadge(s: PageSeries, unit: DisplayUnit): HTMLElement {
  const badge = el("span", "badge unit", unit.label === "" ? s.unit : unit.label);
  if (unit.label !== s.unit) badge.title = `recorded in ${s.unit}`;
  return badge;
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
  const legend = el("p", "legend");
  legend.append(
    el("span", "key median", "median"),
    el("span", "key band", "confidence interval"),
    el("span", "key budget", "budget"),
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

function buildControls(groups: readonly Group[]): Controls {
  const node = el("div", "controls");
  const query = el("input");
  query.type = "search";
  query.placeholder = "name, or a glob such as decode/*";
  query.setAttribute("aria-label", "Filter benchmarks by name");
  const suite = el("select");
  suite.setAttribute("aria-label", "Filter by suite");
  suite.append(new Option("all suites", ""));
  for (const g of groups) suite.append(new Option(g.suite, g.suite));
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
