// Promoting measured summaries to a stored baseline (issue 5; docs/baselines.md): what
// `benchgate baseline accept` writes into `baselines/<name>/`, decided here without touching
// files. The baseline only takes effect once a pull request carrying these files is reviewed
// and merged, exactly like budgets and golden checksums: nobody changes the numbers a gate
// compares against without a reviewed commit.
//
// - Names of files come from round numbers only (`round-3.json`, or `round-3-part-2.json` when
//   one round came as several files), never from benchmark names, which are untrusted
//   (docs/threat-model.md, I5); the baseline's own name is a strict slug for the same reason.
// - The summaries are the validated documents, written back as canonical JSON: `benchgate
//   compare --base baselines/<name>/*.json` reads them like any summary and pairs rounds by
//   number. The manifest is YAML so that glob never picks it up.
// - All files must be one side of one commit, with each benchmark at most once per round:
//   what compare would otherwise reject only later, on every pull request.
import { stringify } from "yaml";
import type { SourcedSummary } from "../core/pairing.ts";
import { InputError } from "../errors.ts";
import type { Sha256 } from "../ports/machine.ts";
import type { BenchSummary } from "../schemas/summary.gen.ts";
import { validateSummary } from "../schemas/validate-document.ts";
import { GENERATOR } from "../version.ts";

/** A baseline's name: one path component, lower-case, as it appears under baselines/. */
const BASELINE_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export const MANIFEST_FILE = "manifest.yml";

/** Everything `accept` may have written into a baseline's folder (and so may replace). */
export const BASELINE_FILE = /^(?:round-[1-9][0-9]*(?:-part-[1-9][0-9]*)?\.json|manifest\.yml)$/;

const SHA = /^[0-9a-f]{40}$/;
const MAX_REASON = 2000;
const MAX_BY = 256;
// Reasons may span lines; other control characters (ESC, NUL, bidi overrides) may not.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

export interface AcceptRequest {
  readonly name: string;
  readonly summaries: readonly SourcedSummary[];
  /** ISO-8601 time of acceptance. */
  readonly acceptedAt: string;
  readonly by?: string | undefined;
  readonly reason?: string | undefined;
  /** The measured commit, when the summaries do not say (they must agree when they do). */
  readonly commit?: string | undefined;
  readonly sha256: Sha256;
}

interface BaselineFile {
  readonly name: string;
  readonly text: string;
}

export interface BaselinePlan {
  /** Round files in round order, then the manifest last (written last: its presence marks a complete baseline). */
  readonly files: readonly BaselineFile[];
  readonly commit: string;
  readonly side: string;
  readonly rounds: readonly number[];
  /** Distinct benchmark ids over all rounds. */
  readonly benchmarks: number;
}

export function checkBaselineName(name: string): string {
  if (!BASELINE_NAME.test(name))
    throw new InputError(
      `baseline name ${JSON.stringify(name.slice(0, 80))} must be 1–64 of a-z 0-9 . _ - starting with a letter or digit`,
    );
  return name;
}

function checkText(value: string | undefined, what: string, max: number): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === "") throw new InputError(`--${what} is empty`);
  if (Array.from(value).length > max)
    throw new InputError(`--${what} is longer than ${max} characters`);
  if (CONTROL.test(value)) throw new InputError(`--${what} contains control characters`);
  return value;
}

/** The one commit and side every summary belongs to, or an error naming the odd file out. */
function identity(
  summaries: readonly SourcedSummary[],
  given: string | undefined,
): { commit: string; side: string } {
  if (given !== undefined && !SHA.test(given))
    throw new InputError(`--commit must be a 40-hex commit SHA, got ${JSON.stringify(given)}`);
  const first = summaries[0];
  if (first === undefined) throw new InputError("no summaries to accept");
  let commit = given;
  for (const { source, summary } of summaries) {
    if (summary.side !== first.summary.side)
      throw new InputError(
        `side ${JSON.stringify(summary.side)} differs from ${JSON.stringify(first.summary.side)} in ${first.source}: a baseline is one side of one run`,
        { source },
      );
    if (summary.commit === undefined) continue;
    if (commit === undefined) commit = summary.commit;
    else if (summary.commit !== commit)
      throw new InputError(
        `measures commit ${summary.commit}, not ${commit}: a baseline is one commit`,
        { source },
      );
  }
  if (commit === undefined)
    throw new InputError("the summaries do not say which commit they measured; pass --commit SHA");
  return { commit, side: first.summary.side };
}

/** Rounds in order; within a round, files in the order given. Ids unique per round. */
function byRound(summaries: readonly SourcedSummary[]): Map<number, SourcedSummary[]> {
  const rounds = new Map<number, SourcedSummary[]>();
  for (const s of summaries) {
    const list = rounds.get(s.summary.round) ?? [];
    list.push(s);
    rounds.set(s.summary.round, list);
  }
  for (const [round, files] of rounds) {
    const seen = new Map<string, string>();
    for (const { source, summary } of files)
      for (const { id } of summary.benchmarks) {
        const other = seen.get(id);
        if (other !== undefined)
          throw new InputError(
            `benchmark ${JSON.stringify(id)} appears twice in round ${round} (also in ${other})`,
            { source },
          );
        seen.set(id, source);
      }
  }
  return new Map([...rounds].sort(([a], [b]) => a - b));
}

function fingerprints(summaries: readonly SourcedSummary[]): string[] {
  const all = summaries.map((s) => s.summary.environment?.fingerprint);
  return [...new Set(all.filter((f): f is string => f !== undefined))];
}

/** Decides the files of `baselines/<name>/` for these summaries (see the file comment). */
export function planBaseline(request: AcceptRequest): BaselinePlan {
  checkBaselineName(request.name);
  const by = checkText(request.by, "by", MAX_BY);
  const reason = checkText(request.reason, "reason", MAX_REASON);
  const { commit, side } = identity(request.summaries, request.commit);
  const rounds = byRound(request.summaries);

  const files: BaselineFile[] = [];
  const listed: Record<string, unknown>[] = [];
  const ids = new Set<string>();
  for (const [round, parts] of rounds) {
    parts.forEach(({ summary }, i) => {
      const name = parts.length === 1 ? `round-${round}.json` : `round-${round}-part-${i + 1}.json`;
      // --commit fills in what an ingested summary may lack; the result is checked again.
      const stored: BenchSummary =
        summary.commit === undefined ? validateSummary({ ...summary, commit }, name) : summary;
      const text = JSON.stringify(stored, null, 2) + "\n";
      for (const b of summary.benchmarks) ids.add(b.id);
      files.push({ name, text });
      listed.push({
        file: name,
        round,
        benchmarks: summary.benchmarks.length,
        sha256: request.sha256(new TextEncoder().encode(text)),
      });
    });
  }

  const refs = [
    ...new Set(request.summaries.map((s) => s.summary.ref).filter((r) => r !== undefined)),
  ];
  const prints = fingerprints(request.summaries);
  const manifest: Record<string, unknown> = {
    name: request.name,
    commit,
    ...(refs.length === 1 ? { ref: refs[0] } : {}),
    side,
    accepted_at: request.acceptedAt,
    ...(by === undefined ? {} : { accepted_by: by }),
    ...(reason === undefined ? {} : { reason }),
    generator: `${GENERATOR.name} ${GENERATOR.version}`,
    rounds: rounds.size,
    benchmarks: ids.size,
    ...(prints.length === 1 ? { environment_fingerprint: prints[0] } : {}),
    ...(prints.length > 1 ? { environment_fingerprints: prints } : {}),
    files: listed,
  };
  const header =
    `# benchgate baseline "${request.name}" (docs/baselines.md): reviewed and merged like code.\n` +
    "# Compare against it: benchgate compare --base <this folder>/*.json --head SUMMARY...\n";
  files.push({ name: MANIFEST_FILE, text: header + stringify(manifest, { lineWidth: 0 }) });
  return { files, commit, side, rounds: [...rounds.keys()], benchmarks: ids.size };
}
