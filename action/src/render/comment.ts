// The sticky PR comment (docs/action.md): a pure function from a report to GitHub Markdown.
// Posting it is the action's job, not this module's, so every byte of it is tested without GitHub. The body must stay under GitHub's
// 65,536-character limit, so sections are shortened by priority and the table is cut last.

import type { BenchReport } from "../schemas/report.gen.ts";
import { foldedBenchmarkTable } from "./benchmark-table.ts";
import { countsPhrase, tableEntries } from "./changed-entries.ts";
import { budgetsSection, goldenSection, smellsSection } from "./comment-checks.ts";
import {
  assumptionsSection,
  environmentWarningSection,
  footerSection,
  reasonsSection,
} from "./comment-sections.ts";
import { checkCommands, commandsSection, type CommentCommands } from "./commands-section.ts";
import { secondaryCountsSection } from "./counts-section.ts";
import { diagnosticsSection } from "./diagnostics-section.ts";
import { headlineSection } from "./headline-section.ts";
import { inconclusiveSection } from "./inconclusive-section.ts";
import { claimsSection, headToHeadSection } from "./ratio-sections.ts";
import { formatCount } from "./format.ts";
import { headline, type Section } from "./markdown-parts.ts";
import { whereSection } from "./where-section.ts";

export type { CommentCommands } from "./commands-section.ts";

/** GitHub rejects longer comment bodies. */
export const GITHUB_MAX_COMMENT_CHARS = 65_536;
/** Our default cap: a margin below GitHub's limit. */
const MAX_COMMENT_CHARS = 65_000;
const MIN_COMMENT_CHARS = 1_000;

/** What a sticky-comment marker must look like; it is never built from untrusted text. */
const MARKER_PATTERN = /^<!-- benchgate:[a-z0-9-]+ -->$/u;

// The table gets at least this share of the body before it is cut, when it needs it.
const TABLE_SHARE = 0.6;

export interface CommentOptions {
  /** Hidden first line that finds the sticky comment again, e.g. `<!-- benchgate:gate -->`. */
  readonly marker?: string;
  /** Shown in the headline. Default `benchgate`. */
  readonly title?: string;
  /** Cap on the body length in UTF-16 code units (≥ the characters GitHub counts). Default 65,000. */
  readonly maxChars?: number;
  /** critcmp's own table, shown verbatim in a folded code block. */
  readonly critcmpTable?: string;
  /** Link to the run's artifacts; only `https:` URLs are shown. */
  readonly artifactsUrl?: string;
  /** The PR's head commit and its acceptance: the commands shown right under the "why". */
  readonly commands?: CommentCommands;
}

/**
 * Renders the PR comment for `report` as GitHub-flavoured Markdown, in the order a maintainer
 * reads it: the verdict naming what fails, the counts, why, the commands that apply, one table
 * of what changed or fails, where each regression's instructions changed (folded), the inconclusive benchmarks in one line (rows folded), secondary
 * counts that changed (folded), budgets, claims and golden outputs (one line each when they
 * pass), head-to-head ratios (folded), and one folded "Diagnostics" block. Every string from the
 * report is escaped. The result is at most `maxChars` long. Throws a RangeError only for
 * invalid options.
 */
export function renderComment(report: BenchReport, options: CommentOptions = {}): string {
  const marker = checkMarker(options.marker);
  const maxChars = checkMaxChars(options.maxChars);
  const artifactsUrl = safeHttpsUrl(options.artifactsUrl);
  const commands = checkCommands(options.commands);
  const accepted = report.verdict === "fail" && commands?.accepted !== undefined;

  const before: Section[] = [
    headlineSection(report, options.title ?? "benchgate", marker, accepted),
    assumptionsSection(report),
    reasonsSection(report),
    commandsSection(report, commands),
    environmentWarningSection(report),
  ];
  const after: Section[] = [
    whereSection(report, artifactsUrl),
    inconclusiveSection(report),
    secondaryCountsSection(report),
    budgetsSection(report),
    claimsSection(report),
    goldenSection(report),
    smellsSection(report, true),
    headToHeadSection(report),
    diagnosticsSection(report, options.critcmpTable),
    footerSection(report, artifactsUrl),
  ];
  const sections = [...before, ...after];
  const chosen = new Map<Section, number>(sections.map((s) => [s, 0]));
  const render = (list: readonly Section[]): string[] =>
    list.map((s) => s.levels[chosen.get(s) ?? 0] ?? "");

  const entries = tableEntries(report);
  const fullTable = foldedBenchmarkTable(report, entries, Infinity, { accepted });
  const reserve = Math.min(fullTable.length + 2, Math.floor(maxChars * TABLE_SHARE));
  while (assemble([...render(before), ...render(after)]).length + reserve > maxChars) {
    if (!shortenOne(sections, chosen)) break;
  }

  const withoutTable = assemble([...render(before), ...render(after)]).length;
  const table = foldedBenchmarkTable(report, entries, maxChars - withoutTable - 2, { accepted });
  const body = assemble([...render(before), table, ...render(after)]);
  return body.length <= maxChars ? body : minimalComment(report, marker);
}

/** Steps the lowest-priority section that can still shrink one level down. */
function shortenOne(sections: readonly Section[], chosen: Map<Section, number>): boolean {
  let pick: Section | undefined;
  for (const s of sections) {
    const level = chosen.get(s) ?? 0;
    if (level < s.levels.length - 1 && (pick === undefined || s.priority < pick.priority)) pick = s;
  }
  if (pick === undefined) return false;
  chosen.set(pick, (chosen.get(pick) ?? 0) + 1);
  return true;
}

function assemble(parts: readonly string[]): string {
  return parts.filter((p) => p !== "").join("\n\n") + "\n";
}

/** The last resort: nothing from the report but the verdict and the counts. */
function minimalComment(report: BenchReport, marker: string | undefined): string {
  const lines = marker === undefined ? [] : [marker];
  lines.push(
    headline(report.verdict, "benchgate", ` — ${countsPhrase(report, formatCount)}`),
    "",
    "The full result is too long for a comment; see report.json in the artifacts.",
  );
  return lines.join("\n") + "\n";
}

function checkMarker(marker: string | undefined): string | undefined {
  if (marker === undefined) return undefined;
  if (!MARKER_PATTERN.test(marker)) {
    throw new RangeError(
      `renderComment: marker must look like "<!-- benchgate:gate -->" (lowercase letters, digits, "-"), got ${JSON.stringify(marker.slice(0, 80))}`,
    );
  }
  return marker;
}

function checkMaxChars(maxChars: number | undefined): number {
  if (maxChars === undefined) return MAX_COMMENT_CHARS;
  if (
    !Number.isInteger(maxChars) ||
    maxChars < MIN_COMMENT_CHARS ||
    maxChars > GITHUB_MAX_COMMENT_CHARS
  ) {
    throw new RangeError(
      `renderComment: maxChars must be an integer from ${MIN_COMMENT_CHARS} to ${GITHUB_MAX_COMMENT_CHARS}, got ${String(maxChars)}`,
    );
  }
  return maxChars;
}

/** An https URL fit for a Markdown link destination, or undefined. */
function safeHttpsUrl(url: string | undefined): string | undefined {
  if (url === undefined || url.length > 2048) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== "https:" || parsed.username !== "" || parsed.password !== "")
    return undefined;
  // The serializer percent-encodes spaces, quotes and angle brackets; these would end the link.
  return parsed.href.replace(
    /[()<>|\\`\s]/gu,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`,
  );
}
