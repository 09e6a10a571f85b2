// Real reports to render the PR comment from (issue 27): the demo's (a real run of `npm run demo`,
// kept as a fixture beside the renderer) and recorded A/A suites (bench/data: two builds of one
// commit, nothing changed) as they are (inconclusive with 5 rounds, a pass with 15) and with ×2
// injected into five benchmarks' head rounds (a fail the rule must confirm).
import { readFileSync } from "node:fs";
import { loadAaSuite, scaleBenchmark } from "../../../bench/aa-data.ts";
import { compare } from "../../src/core/compare-summaries.ts";
import { renderComment } from "../../src/render/comment.ts";
import type { SourcedSummary } from "../../src/core/pairing.ts";
import { resolveSettings } from "../../src/core/settings.ts";
import type { BenchReport } from "../../src/schemas/report.gen.ts";

/** The head commit the comments' commands name. */
export const HEAD_SHA = "0d6ab695fde9c1b2a3f4e5d6c7b8a9f0e1d2c3b4";

const fixtures = new URL("../../src/render/__fixtures__/", import.meta.url);

export function demoReport(): BenchReport {
  return JSON.parse(readFileSync(new URL("demo-report.json", fixtures), "utf8")) as BenchReport;
}

/** critcmp's table of the same demo run, which the comment folds into its diagnostics. */
export function demoCritcmpTable(): string {
  return readFileSync(new URL("demo-critcmp.txt", fixtures), "utf8");
}

/** Five benchmarks of the recorded bs58 suite, slowed ×2 in every head round. */
export const INJECTED = [
  "1_byte/decode_base58",
  "10_bytes/decode_base58",
  "10_bytes_max/decode_rust_base58",
  "256_bytes/encode_bs58_noalloc",
  "5_bytes/decode_bs58_noalloc_slice",
] as const;

async function recorded(name: string): Promise<{ base: SourcedSummary[]; head: SourcedSummary[] }> {
  const dir = new URL(`../../../bench/data/${name}`, import.meta.url).pathname;
  const suite = await loadAaSuite(dir);
  if (suite === undefined) throw new Error(`${dir} is missing`);
  return { base: [...suite.base], head: [...suite.head] };
}

/** The bs58 A/A recording (5 rounds) compared as recorded: too noisy to rule anything out. */
export async function inconclusiveReport(): Promise<BenchReport> {
  const { base, head } = await recorded("aa-bs58-0.5.1");
  return compare(base, head, { settings: resolveSettings() });
}

/** The tiny-bench A/A recording of 15 rounds: enough to rule out a 3 % regression everywhere. */
export async function passReport(): Promise<BenchReport> {
  const { base, head } = await recorded("aa-tiny-bench-0.1.0-k15");
  return compare(base, head, { settings: resolveSettings() });
}

/** The bs58 A/A recording with ×2 in the head rounds of the five INJECTED benchmarks. */
export async function injectedReport(): Promise<BenchReport> {
  const { base, head } = await recorded("aa-bs58-0.5.1");
  const slowed: readonly string[] = INJECTED;
  const injected = head.map((s) => ({
    ...s,
    summary: {
      ...s.summary,
      benchmarks: s.summary.benchmarks.map((b) =>
        slowed.includes(b.id) ? scaleBenchmark(b, 2) : b,
      ),
    },
  }));
  return compare(base, injected, { settings: resolveSettings() });
}

/**
 * The comment's lines a reader sees without opening anything: not blank, not an HTML comment,
 * not inside a <details> block.
 */
export function visibleLines(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  for (const line of body.split("\n")) {
    if (depth === 0 && line.trim() !== "" && !/^<!--.*-->$/u.test(line.trim())) out.push(line);
    depth += (line.match(/<details/gu) ?? []).length - (line.match(/<\/details>/gu) ?? []).length;
  }
  return out;
}

/**
 * The comment as the gate posts it on a pull request: its marker, the commands for HEAD_SHA, and
 * critcmp's table when the run had one.
 */
export function prComment(report: BenchReport, critcmpTable?: string): string {
  return renderComment(report, {
    marker: "<!-- benchgate:gate -->",
    commands: { headSha: HEAD_SHA },
    ...(critcmpTable === undefined ? {} : { critcmpTable }),
  });
}

export interface CommentCase {
  /** The screenshot's name in docs/images. */
  readonly shot: string;
  readonly label: string;
  readonly build: () => Promise<BenchReport>;
  readonly critcmpTable?: string;
}

/** One real report of each verdict kind (two fails: the demo's and an injected one). */
export const COMMENT_CASES: readonly CommentCase[] = [
  {
    shot: "comment-fail-demo",
    label: "the demo",
    build: () => Promise.resolve(demoReport()),
    critcmpTable: demoCritcmpTable(),
  },
  { shot: "comment-fail", label: "bs58 with ×2 in five benchmarks", build: injectedReport },
  { shot: "comment-inconclusive", label: "bs58 A/A, 5 rounds", build: inconclusiveReport },
  { shot: "comment-pass", label: "tiny-bench A/A, 15 rounds", build: passReport },
];

/** Percentages of 1,000 % or more in `text`: each should have been written as a ratio. */
export function bigPercentages(text: string): string[] {
  return [...text.matchAll(/([\d,]+)(?:\.\d+)? ?%/gu)]
    .filter((m) => Number((m[1] ?? "").replaceAll(",", "")) >= 1000)
    .map((m) => m[0]);
}
