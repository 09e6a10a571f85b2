import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { errorOf } from "../../test/support/input-error.ts";
import { FIXTURES } from "../../test/support/fixtures.ts";
import type { SourcedSummary } from "../core/pairing.ts";
import { ingest } from "../ingest/index.ts";
import { nodeFileReader } from "../io/node-files.ts";
import type { BenchSummary } from "../schemas/summary.gen.ts";
import { validateSummary } from "../schemas/validate-document.ts";
import {
  BASELINE_FILE,
  MANIFEST_FILE,
  checkBaselineName,
  planBaseline,
  type AcceptRequest,
} from "./accept-baseline.ts";

const SHA = "89abcdef0123456789abcdef0123456789abcdef";
const sha256 = (data: Uint8Array): string => createHash("sha256").update(data).digest("hex");

/** Real Criterion 0.8.2 output (its "head" baseline), ingested as rounds 1…3 of one run. */
let rounds: BenchSummary[];
beforeAll(async () => {
  rounds = [];
  for (const round of [1, 2, 3]) {
    const summary = await ingest(
      "criterion",
      `${FIXTURES}/criterion-0.8.2`,
      { baseline: "head", side: "head", round },
      nodeFileReader,
    );
    rounds.push({ ...summary, commit: SHA, ref: "main" });
  }
});

const sourced = (summaries: readonly BenchSummary[]): SourcedSummary[] =>
  summaries.map((summary) => ({ source: `head-${summary.round}.json`, summary }));

function request(patch: Partial<AcceptRequest> = {}): AcceptRequest {
  return {
    name: "main",
    summaries: sourced(rounds),
    acceptedAt: "2026-11-22T12:00:00.000Z",
    by: "octocat",
    reason: "release 1.4 numbers\non the pinned runner",
    sha256,
    ...patch,
  };
}

const problem = (patch: Partial<AcceptRequest>): string =>
  errorOf(() => planBaseline(request(patch))).describe();

describe("planBaseline", () => {
  it("writes one validated summary per round, named by round number, then the manifest", () => {
    const plan = planBaseline(request());
    expect(plan.files.map((f) => f.name)).toEqual([
      "round-1.json",
      "round-2.json",
      "round-3.json",
      MANIFEST_FILE,
    ]);
    expect(plan).toMatchObject({ commit: SHA, side: "head", rounds: [1, 2, 3] });
    for (const [i, file] of plan.files.slice(0, 3).entries()) {
      expect(validateSummary(JSON.parse(file.text), file.name)).toEqual(rounds[i]);
      expect(BASELINE_FILE.test(file.name)).toBe(true);
    }
    expect(plan.benchmarks).toBe(rounds[0]?.benchmarks.length);
  });

  it("never derives a file name from a benchmark name", () => {
    const hostile = rounds.map((r) => ({
      ...r,
      benchmarks: r.benchmarks.map((b, i) => ({
        ...b,
        id: i === 0 ? "../../../etc/passwd" : b.id,
      })),
    }));
    const names = planBaseline(request({ summaries: sourced(hostile) })).files.map((f) => f.name);
    expect(names).toEqual(["round-1.json", "round-2.json", "round-3.json", MANIFEST_FILE]);
  });

  it("records commit, side, who, why and each file's digest in the manifest", () => {
    const plan = planBaseline(request());
    const manifest = plan.files.at(-1)?.text ?? "";
    expect(manifest).toMatch(/^# benchgate baseline "main"/);
    const parsed = parseYaml(manifest) as Record<string, unknown>;
    expect(parsed).toMatchObject({
      name: "main",
      commit: SHA,
      ref: "main",
      side: "head",
      accepted_at: "2026-11-22T12:00:00.000Z",
      accepted_by: "octocat",
      reason: "release 1.4 numbers\non the pinned runner",
      rounds: 3,
      benchmarks: plan.benchmarks,
    });
    expect(parsed["files"]).toEqual(
      plan.files.slice(0, 3).map((f, i) => ({
        file: f.name,
        round: i + 1,
        benchmarks: rounds[i]?.benchmarks.length,
        sha256: sha256(new TextEncoder().encode(f.text)),
      })),
    );
  });

  it("is deterministic: the same inputs give the same bytes", () => {
    expect(planBaseline(request())).toEqual(planBaseline(request()));
  });

  it("splits a round given as several files into parts, in the order given", () => {
    const [first] = rounds as [BenchSummary];
    const half = Math.ceil(first.benchmarks.length / 2);
    const a = { ...first, benchmarks: first.benchmarks.slice(0, half) };
    const b = { ...first, benchmarks: first.benchmarks.slice(half) };
    const plan = planBaseline(request({ summaries: sourced([b, a]) }));
    expect(plan.files.map((f) => f.name)).toEqual([
      "round-1-part-1.json",
      "round-1-part-2.json",
      MANIFEST_FILE,
    ]);
    expect(JSON.parse(plan.files[0]?.text ?? "")).toEqual(b);
  });

  it("fills in --commit for summaries that do not record one", () => {
    const bare = rounds.map((r) => {
      const copy = { ...r };
      delete copy.commit;
      return copy;
    });
    expect(problem({ summaries: sourced(bare) })).toMatch(
      /do not say which commit .* --commit SHA/,
    );
    const plan = planBaseline(request({ summaries: sourced(bare), commit: SHA }));
    expect((JSON.parse(plan.files[0]?.text ?? "") as BenchSummary).commit).toBe(SHA);
    expect(problem({ summaries: sourced(bare), commit: "main" })).toMatch(
      /--commit must be a 40-hex/,
    );
  });

  it.each([
    [
      "two sides",
      () => sourced([rounds[0]!, { ...rounds[1]!, side: "base" }]),
      /head-2\.json: side "base" differs from "head" in head-1\.json/,
    ],
    [
      "two commits",
      () => sourced([rounds[0]!, { ...rounds[1]!, commit: "f".repeat(40) }]),
      /head-2\.json: measures commit f{40}, not 89abcdef/,
    ],
    [
      "a benchmark twice in one round",
      () => sourced([rounds[0]!, rounds[0]!]),
      /head-1\.json: benchmark ".*" appears twice in round 1 \(also in head-1\.json\)/,
    ],
    ["nothing", () => [], /no summaries to accept/],
  ])("refuses %s", (_what, summaries, message) => {
    expect(problem({ summaries: summaries() })).toMatch(message);
  });

  it.each(["", "Main", "../main", "a/b", ".hidden", "-x", "x".repeat(65), "main\n"])(
    "refuses the name %j",
    (name) => {
      expect(() => checkBaselineName(name)).toThrow(/baseline name .* must be 1–64 of a-z 0-9/);
    },
  );

  it("accepts slugs such as main, v1.4 and nightly_x86-64", () => {
    for (const name of ["main", "v1.4", "nightly_x86-64", "0"])
      expect(checkBaselineName(name)).toBe(name);
  });

  it.each([
    [{ reason: "" }, /--reason is empty/],
    [{ reason: "ok\u001b[31m red" }, /--reason contains control characters/],
    [{ by: "x\u202eevil" }, /--by contains control characters/],
    [{ reason: "r".repeat(2001) }, /--reason is longer than 2000/],
  ])("refuses %j", (patch, message) => {
    expect(problem(patch)).toMatch(message);
  });
});
