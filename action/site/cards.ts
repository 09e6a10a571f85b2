// One card per benchmark: its name, badges (direction, unit, latest value, budget, the step at
// the latest commit), the y range drawn, the chart box, the lists of superseded baselines and
// change points under it, and its secondary counts folded in a <details> below (series-groups.ts
// says which they are), each with a small chart of its own drawn when the fold is opened.
import { chooseDisplayUnit, formatInUnit, type DisplayUnit } from "../src/site/display-units.ts";
import type { PageCommits, PageSeries } from "../src/site/page-model.ts";
import type { ChartPlace } from "./chart.ts";
import { el } from "./dom.ts";
import { formatStep, isWorse, shortSha } from "./format.ts";

/** One chart on the page: a card's own, or one of its secondary counts'. */
export interface Plot {
  readonly series: PageSeries;
  /** The unit its chart, tooltip and texts show values in, chosen once from its medians. */
  readonly unit: DisplayUnit;
  /** Null when the series has nothing to draw. */
  readonly place: ChartPlace | null;
}

export interface Card {
  /** Index of the lead series in the model. */
  readonly lead: number;
  readonly plot: Plot;
  readonly secondary: readonly Plot[];
  /** The fold holding the secondary charts; null without secondary series. */
  readonly fold: HTMLDetailsElement | null;
  readonly node: HTMLElement;
}

/** `withSuite`: the card sits among other suites' cards, so it names its own. */
export function buildCard(
  lead: number,
  series: PageSeries,
  secondary: readonly PageSeries[],
  commits: PageCommits,
  withSuite: boolean,
): Card {
  const node = el("article", "card");
  const plot = plotBlock(node, series, commits, "name");
  if (withSuite) node.querySelector(".badges")?.prepend(el("span", "badge suite", series.suite));
  const plots = secondary.map((s) => {
    const sub = el("section", "sub-card");
    return { node: sub, plot: plotBlock(sub, s, commits, "sub-name") };
  });
  let fold: HTMLDetailsElement | null = null;
  if (plots.length > 0) {
    fold = el("details", "secondary");
    const moved = secondary.filter((s) => s.latestStep !== null).length;
    const names = secondary.map((s) => metricName(s.id, series.id)).join(", ");
    const summary = el("summary", undefined, `${plots.length} more: ${names}`);
    if (moved > 0) summary.append(el("span", "moved", ` · ${moved} moved at the latest commit`));
    fold.append(summary, ...plots.map((p) => p.node));
    node.append(fold);
  }
  return { lead, plot, secondary: plots.map((p) => p.plot), fold, node };
}

/** "l1_hits" for "parse small [l1_hits]" under "parse small"; the whole id otherwise. */
function metricName(id: string, leadId: string): string {
  const bracket = /^.+ \[([^\]]+)\]$/su.exec(id);
  if (bracket !== null) return bracket[1] as string;
  return id.startsWith(`${leadId.replace(/ \S+$/u, "")} `) ? id.replace(/^.* /su, "") : id;
}

/** A series' heading, badges, chart box and notes, appended to `parent`. */
function plotBlock(
  parent: HTMLElement,
  s: PageSeries,
  commits: PageCommits,
  nameClass: string,
): Plot {
  const unit = chooseDisplayUnit(s.unit, s.median);
  const head = el("header", "card-head");
  head.append(el(nameClass === "name" ? "h3" : "h4", nameClass, s.id));
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
  const latest = s.median.findLast((v) => v !== null) ?? null;
  badges.append(el("span", "badge latest", `latest ${formatInUnit(latest, unit)}`));
  const budget = (s.budget ?? []).filter((v): v is number => v !== null).at(-1);
  if (budget !== undefined)
    badges.append(el("span", "badge budget", `budget ${formatInUnit(budget, unit)}`));
  const step = s.latestStep;
  if (step !== null)
    badges.append(
      el(
        "span",
        `badge step ${step.worse ? "worse" : "better"}`,
        `${formatStep(step.step)} at ${shortSha(commits.sha[step.index])}`,
      ),
    );
  head.append(badges);
  parent.append(head);
  let place: ChartPlace | null = null;
  // A series in the catalogue whose commits were all dropped by retention has nothing to draw.
  if (s.median.some((v) => v !== null)) {
    place = { box: el("div", "chart"), span: el("p", "yspan") };
    parent.append(place.span, place.box);
  } else parent.append(el("p", "empty", "No results in the commits kept."));
  if (s.breaks.length > 0) parent.append(breakNotes(s, commits));
  if (s.changes.length > 0) parent.append(changeNotes(s, unit));
  return { series: s, unit, place };
}

function breakNotes(s: PageSeries, commits: PageCommits): HTMLElement {
  const list = el("p", "breaks");
  list.append(el("span", "breaks-title", "New baseline: "));
  s.breaks.forEach((b, i) => {
    const item = el("span", "break-note");
    item.textContent = `${i > 0 ? " · " : ""}from #${b.index + 1} (${shortSha(commits.sha[b.index])}): ${b.reason}`;
    list.append(item);
  });
  return list;
}

function changeNotes(s: PageSeries, unit: DisplayUnit): HTMLElement {
  const list = el("p", "changes");
  list.append(el("span", "changes-title", "Change points: "));
  s.changes.forEach((c, i) => {
    const item = el("span", `change ${isWorse(c.step, s.direction) ? "worse" : "better"}`);
    item.textContent = `${i > 0 ? " · " : ""}#${c.index + 1} ${formatStep(c.step)} (${formatInUnit(c.before, unit)} → ${formatInUnit(c.after, unit)})`;
    list.append(item);
  });
  return list;
}

/** The unit the chart is drawn in; the recorded one, when it differs, on hover. */
function unitBadge(s: PageSeries, unit: DisplayUnit): HTMLElement {
  const badge = el("span", "badge unit", unit.label === "" ? s.unit : unit.label);
  if (unit.label !== s.unit) badge.title = `recorded in ${s.unit}`;
  return badge;
}
