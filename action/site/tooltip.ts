// One tooltip for the whole page: the commit under the cursor (short SHA, message, author,
// date, the value with its interval, budget, verdict, a superseded baseline's reason, a link). A click pins it so the link can
// be reached; a second click on the chart, a click elsewhere or Escape releases it.
import { formatInUnit, formatNumberIn, type DisplayUnit } from "../src/site/display-units.ts";
import type { PageCommits, PageSeries } from "../src/site/page-model.ts";
import { el, externalLink, httpsHref } from "./dom.ts";
import { longDate, shortSha } from "./format.ts";

export interface Tooltip {
  /**
   * Shows commit `index` of `series`, its values in `unit`, at viewport point (x, y); ignored
   * while pinned elsewhere.
   */
  show(
    series: PageSeries,
    unit: DisplayUnit,
    index: number,
    x: number,
    y: number,
    owner: object,
  ): void;
  hide(owner: object): void;
  /** Pins the tooltip for `owner`, or releases it if it is already pinned there. */
  togglePin(owner: object): void;
}

export function createTooltip(commits: PageCommits): Tooltip {
  const box = el("div", "tooltip");
  box.setAttribute("role", "tooltip");
  box.hidden = true;
  document.body.append(box);
  let pinnedBy: object | null = null;
  let shownBy: object | null = null;

  const release = (): void => {
    pinnedBy = null;
    box.classList.remove("pinned");
    box.hidden = true;
  };
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") release();
  });
  document.addEventListener("click", (event) => {
    if (pinnedBy !== null && !box.contains(event.target as Node) && event.target !== null) {
      const over = (event.target as Element).closest?.(".u-over");
      if (over === null || over === undefined) release();
    }
  });

  return {
    show(series, unit, index, x, y, owner) {
      if (pinnedBy !== null) return;
      shownBy = owner;
      box.replaceChildren(...content(commits, series, unit, index));
      box.hidden = false;
      place(box, x, y);
    },
    hide(owner) {
      if (pinnedBy === null && shownBy === owner) box.hidden = true;
    },
    togglePin(owner) {
      if (pinnedBy === owner) release();
      else if (!box.hidden && shownBy === owner) {
        pinnedBy = owner;
        box.classList.add("pinned");
      }
    },
  };
}

function content(
  commits: PageCommits,
  series: PageSeries,
  unit: DisplayUnit,
  index: number,
): HTMLElement[] {
  const at = index - series.start;
  const value = (values: readonly (number | null)[] | null): number | null => values?.[at] ?? null;
  const head = el("div", "tip-head");
  head.append(
    el("code", "sha", shortSha(commits.sha[index])),
    el("span", "tip-index", ` commit ${index + 1} of ${commits.sha.length}`),
  );
  const parts = [head, el("div", "tip-message", commits.message[index] ?? "")];
  parts.push(
    el("div", "tip-meta", `${commits.author[index] ?? ""} · ${longDate(commits.date[index])}`),
  );
  const low = value(series.low);
  const high = value(series.high);
  const interval =
    low !== null && high !== null
      ? `  [${formatNumberIn(low, unit)}, ${formatNumberIn(high, unit)}]`
      : "";
  parts.push(
    el("div", "tip-value", `median ${formatInUnit(value(series.median), unit)}${interval}`),
  );
  const budget = value(series.budget);
  if (budget !== null) parts.push(el("div", "tip-budget", `budget ${formatInUnit(budget, unit)}`));
  const verdict = commits.verdict[index];
  if (verdict !== null && verdict !== undefined)
    parts.push(el("div", "tip-verdict", `gate: ${verdict}`));
  const cut = series.breaks.find((b) => b.index === index);
  if (cut !== undefined) parts.push(el("div", "tip-break", `new baseline: ${cut.reason}`));
  const note = series.notes?.[at];
  if (note !== null && note !== undefined) parts.push(el("div", "tip-note", note));
  const href = httpsHref(commits.url[index]);
  const foot = el("div", "tip-foot");
  if (href !== null) foot.append(externalLink(href, "open commit ↗"));
  foot.append(el("span", "tip-hint", href === null ? "click to pin" : " · click to pin"));
  parts.push(foot);
  return parts;
}

/** Beside the cursor, flipped to stay inside the window. */
function place(box: HTMLElement, x: number, y: number): void {
  const gap = 14;
  const { width, height } = box.getBoundingClientRect();
  const left = x + gap + width > window.innerWidth ? Math.max(4, x - gap - width) : x + gap;
  const top = y + gap + height > window.innerHeight ? Math.max(4, y - gap - height) : y + gap;
  box.style.left = `${left}px`;
  box.style.top = `${top}px`;
}
