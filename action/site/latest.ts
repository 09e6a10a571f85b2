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

/** "5 moved here: normalize +203 % · …", each card's step in the page's order. */
function movedLine(model: PageModel, changed: readonly number[]): HTMLElement {
  const line = el("p", "moved-list");
  if (changed.length === 0) {
    line.textContent =
      "No benchmark moved here beyond the intervals of this commit and the one before.";
    return line;
  }
  line.append(el("span", "moved-title", `${changed.length} moved here: `));
  changed.forEach((lead, n) => {
    const moved = stepOfCard(model.series, lead);
    if (moved === null) return;
    const { series, step } = moved;
    const item = el("span", `moved-item ${step.worse ? "worse" : "better"}`);
    item.textContent = `${n > 0 ? " · " : ""}${series.id} ${formatStep(step.step)}`;
    line.append(item);
  });
  return line;
}

type Step = NonNullable<PageSeries["latestStep"]>;

/**
 * The step that put a card in the list, with the series it belongs to: the lead's own, else
 * its secondary count's largest regression, else its largest improvement (as the order ranks).
 */
function stepOfCard(
  all: readonly PageSeries[],
  lead: number,
): { series: PageSeries; step: Step } | null {
  const own = all[lead];
  if (own === undefined) return null;
  if (own.latestStep !== null) return { series: own, step: own.latestStep };
  const moved = all.flatMap((s) =>
    s.lead === lead && s.latestStep !== null ? [{ series: s, step: s.latestStep }] : [],
  );
  const worse = moved.filter((m) => m.step.worse);
  const size = (step: Step): number => Math.abs(Math.log(step.after / step.before));
  return (worse.length > 0 ? worse : moved).reduce<{ series: PageSeries; step: Step } | null>(
    (best, m) => (best === null || size(m.step) > size(best.step) ? m : best),
    null,
  );
}
