// The comment's "Where it regressed" section (docs/where.md), right under the table: one folded
// block per confirmed regression that report.json gives a `where` diff (./where-block.ts), with
// the names of its Callgrind files and flame graph in the output folder (the run's artifacts),
// and one line for each regression whose Where could not be computed. A Where the report job
// carried over from the measure job (`from_measure_job`, gate/measured-where.ts) says so: that
// job ran the pull request's code. Shortened like every section: fewer rows per block, then the
// blocks' summaries only, then nothing.
import type { BenchReport, Entry, Where } from "../schemas/report.gen.ts";
import { formatCount } from "./format.ts";
import { bulletList, code, levels, text, type Section } from "./markdown-parts.ts";
import { whereBlock, whereSummary } from "./where-block.ts";

type WithWhere = Entry & { readonly where: Where };

/** Said of a carried Where: who computed it, from what, and that it is shown unchanged. */
const BY_MEASURE_JOB =
  "Profiled by the measure job, from the pull request's code; shown as that job wrote it.";

/** Where the block's files are: a link to the artifacts when there is one, else the folder. */
function filesLine(where: Where, artifactsUrl: string | undefined): string | undefined {
  const { files } = where;
  if (files === undefined) return undefined;
  const names = [files.base, files.head, files.flame_diff].map((f) => code(f, 60)).join(", ");
  const place =
    artifactsUrl === undefined
      ? "in the output folder"
      : `in the [run's artifacts](${artifactsUrl})`;
  return `Callgrind files and a differential flame graph ${place}: ${names}.`;
}

/** `artifactsUrl` must already be a checked https URL. */
export function whereSection(report: BenchReport, artifactsUrl: string | undefined): Section {
  const entries = report.benchmarks.filter((e): e is WithWhere => e.where !== undefined);
  if (entries.length === 0) return { priority: 4, levels: [""] };
  const computed = entries.filter((e) => e.where.diff !== undefined);
  const notes = entries.filter((e) => e.where.diff === undefined);
  const byMeasureJob = (where: Where): string =>
    where.from_measure_job === true ? " (from the measure job)" : "";
  const noteLines = (limit: number): string =>
    notes.length === 0
      ? ""
      : bulletList(
          notes,
          limit,
          (e) => `${code(e.id, 80)}: ${text(e.where.note, 300)}${byMeasureJob(e.where)}`,
        );
  const render = (rows: number, noteLimit: number): string => {
    const blocks = computed.map((e) => {
      const diff = e.where.diff as NonNullable<Where["diff"]>;
      const footer = [
        e.where.from_measure_job === true ? BY_MEASURE_JOB : undefined,
        filesLine(e.where, artifactsUrl),
      ].filter((line) => line !== undefined);
      return whereBlock(diff, {
        maxRows: rows,
        benchmark: e.id,
        ...(footer.length === 0 ? {} : { footer: footer.join("\n\n") }),
      });
    });
    return ["**Where it regressed**", ...blocks, noteLines(noteLimit)]
      .filter((p) => p !== "")
      .join("\n\n");
  };
  if (computed.length === 0)
    return { priority: 4, levels: levels(render(5, 20), render(5, 5), "") };
  const summaries = [
    "**Where it regressed**",
    bulletList(
      computed,
      20,
      (e) =>
        `${code(e.id, 80)}: ${whereSummary(e.where.diff as NonNullable<Where["diff"]>)}${byMeasureJob(e.where)}`,
    ),
  ].join("\n\n");
  const by = computed.some((e) => e.where.from_measure_job === true) ? " by the measure job" : "";
  const oneLine = `**Where it regressed:** ${formatCount(computed.length)} regression(s) profiled${by}; see report.json.`;
  return {
    priority: 4,
    levels: levels(render(5, 20), render(3, 5), summaries, oneLine, ""),
  };
}
