// The page opens on the latest commit of the default branch: its short SHA, message, author and
// date, the gate's verdict on it, and what moved there (latest-change.ts), regressions first;
// the cards of those benchmarks come right below, in the same order.
import type { PageModel, PageSeries } from "../src/site/page-model.ts";
import { el, externalLink, httpsHref } from "./dom.ts";
import { formatStep, longDate, shortSha } from "./format.ts";

/** The gate's verdicts as the panel words them. */
const VERDICTS = {
  pass: "passed",
  fail: "failed",
  inconclusive: "inconclusive",
  error: "error",
} as const;

export function latestPanel(model: PageModel): HTMLElement | null {
  const latest = model.latest;
  if (latest === null) return null;
  const { commits } = model;
  const i = latest.index;
  const verdict = commits.verdict[i] ?? null;
  const node = el("section", `latest-commit verdict-${verdict ?? "none"}`);
  const title = el("h2", undefined, "Latest commit ");
  title.append(el("code", "sha", shortSha(commits.sha[i])));
  const word = verdict === null ? null : (VERDICTS[verdict as keyof typeof VERDICTS] ?? verdict);
  title.append(
    el("span", "verdict", word === null ? "no verdict recorded" : `gate: ${word}`),
    el("span", "position", ` #${i + 1} of ${commits.sha.length}`),
  );
  node.append(title);
  const meta = el(
    "p",
    "latest-meta",
    `${commits.message[i] ?? ""} · ${commits.author[i] ?? ""} · ${longDate(commits.date[i])}`,
  );
  const href = httpsHref(commits.url[i]);
  if (href !== null) meta.append(" · ", externalLink(href, "open commit ↗"));
  node.append(meta);
  node.append(movedLine(model, latest.changed));
  return node;
}

/** "Moved here: normalize +203 % · …", the cards' own steps in the page's order. */
function movedLine(model: PageModel, changed: readonly number[]): HTMLElement {
  const line = el("p", "moved-list");
  if (changed.length === 0) {
    line.textContent =
      "No benchmark moved here beyond the intervals of this commit and the one before.";
    return line;
  }
  line.append(el("span", "moved-title", `${changed.length} moved here: `));
  changed.forEach((lead, n) => {
    const series = model.series[lead];
    if (series === undefined) return;
    const step = stepOfCard(model.series, lead, series);
    const item = el("span", `moved-item ${step?.worse === true ? "worse" : "better"}`);
    item.textContent = `${n > 0 ? " · " : ""}${series.id} ${step === null ? "" : formatStep(step.step)}`;
    line.append(item);
  });
  return line;
}

/** A card's step: its own, else its secondary count's largest (the one that ranked it). */
function stepOfCard(
  all: readonly PageSeries[],
  lead: number,
  series: PageSeries,
): PageSeries["latestStep"] {
  if (series.latestStep !== null) return series.latestStep;
  const steps = all
    .filter((s) => s.lead === lead && s.latestStep !== null)
    .map((s) => s.latestStep as NonNullable<PageSeries["latestStep"]>);
  const worse = steps.filter((s) => s.worse);
  const pool = worse.length > 0 ? worse : steps;
  return pool.reduce<PageSeries["latestStep"]>(
    (best, s) =>
      best === null ||
      Math.abs(Math.log(s.after / s.before)) > Math.abs(Math.log(best.after / best.before))
        ? s
        : best,
    null,
  );
}
