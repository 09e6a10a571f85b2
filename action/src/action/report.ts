// mode: report — the privileged half of the split workflow (security.md §8.5, §8.7). It runs on
// a GitHub-hosted runner after the measure job, holds the write token, and never runs the pull
// request's code: it reads the measure job's summaries as hostile data, recomputes the verdict
// with the statistics, budgets and smells settings of the base commit's config (so neither the
// change nor the artifact can loosen its own gate), and publishes it. A measure job that did not
// succeed is a failed check, never a pass or a neutral one (§7 F7).
import path from "node:path";
import type { Machine } from "../ports/machine.ts";
import { defaultCacheDir, loadRunConfig } from "../cli/gate-session.ts";
import { budgetRules, gateReport } from "../cli/gate-report.ts";
import { InputError } from "../errors.ts";
import type { GitHubPort } from "../ports/github.ts";
import { GATE_MARKER } from "../github/sticky-comment.ts";
import { renderComment } from "../render/comment.ts";
import type { ActionConfig } from "./action-config.ts";
import type { StepIO } from "../ports/step-io.ts";
import type { GateEvent } from "../github/event.ts";
import { actionSettings, gateTarget } from "./gate.ts";
import { appendHistory } from "./append-history.ts";
import { readMeasuredResults } from "./measured-results.ts";
import {
  describeError,
  publishError,
  publishVerdict,
  type GateOutcome,
} from "./publish-verdict.ts";

const MEASURE_FAILED: Readonly<Record<string, string>> = {
  failure:
    "the measure job failed (a build or benchmark error, a timeout, or a crash): see its log",
  cancelled: "the measure job was cancelled before it finished",
  skipped: "the measure job was skipped, so nothing was measured",
};

export async function runReportMode(
  config: ActionConfig,
  event: GateEvent,
  github: GitHubPort,
  io: StepIO,
  machine: Machine,
): Promise<GateOutcome> {
  const target = gateTarget(config, event);
  const ctx = { config, github, io, target };
  const results = path.resolve(config.github.workspace, config.results ?? "");
  const failed = MEASURE_FAILED[config.measureResult ?? "skipped"];
  if (failed !== undefined) {
    await publishError(ctx, undefined, failed, {
      comment: config.measureResult !== "cancelled",
    });
    io.setOutput("verdict", "error");
    return { verdict: "error", failed: true };
  }
  const repo = path.resolve(config.github.workspace);
  const out = path.resolve(repo, config.out);
  let computed;
  try {
    const run = await loadRunConfig(
      {
        repo,
        baseRef: target.baseSha,
        headRef: target.headSha,
        out,
        cacheDir: defaultCacheDir(machine.env),
        configPath: config.configPath,
        rounds: config.rounds,
        settings: actionSettings(config),
        quiet: true,
      },
      machine,
    );
    // The rounds the trusted config asked for (a fixed count, or rounds: auto's design).
    const measured = await readMeasuredResults(machine.reader, results, target, run);
    // The golden outputs the base config names, no more and no fewer: an artifact cannot drop
    // a changed output from the verdict.
    const wanted = (run.golden?.commands ?? []).map((c) => c.name).sort();
    const got = measured.golden.map((g) => g.name).sort();
    if (JSON.stringify(wanted) !== JSON.stringify(got))
      throw new InputError(
        `the measure job's report.json has golden results for [${got.join(", ")}], but the base config names [${wanted.join(", ")}]`,
        { source: path.join(results, "report.json") },
      );
    const report = gateReport({
      base: measured.base,
      head: measured.head,
      settings: actionSettings(config)(run),
      budgets: budgetRules(run.document, run.source),
      filtered: config.filter !== undefined,
      golden: measured.golden,
      smells: run.document.smells,
      now: machine.clock.date(),
    });
    const markdown = renderComment(report, {
      marker: GATE_MARKER,
      ...(measured.critcmpTable === undefined ? {} : { critcmpTable: measured.critcmpTable }),
    });
    // Our own copies, beside nothing the measure job wrote.
    const reportFile = path.join(out, "report.json");
    await machine.dirs.ensure(out);
    await machine.writer.writeText(reportFile, JSON.stringify(report, null, 2) + "\n");
    await machine.writer.writeText(path.join(out, "comment.md"), markdown);
    computed = { report, markdown, reportFile };
  } catch (error) {
    await publishError(ctx, undefined, describeError(error));
    throw error;
  }
  const outcome = await publishVerdict(ctx, computed, undefined);
  // A history that could not be written fails the step by itself (io.fail), after the verdict.
  await appendHistory(config, target, computed.reportFile, machine, io);
  return outcome;
}
