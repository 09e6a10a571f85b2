// The report job's reading of the measure job's folder, on hand-made folders: which rounds must
// be there (a fixed count, or rounds: auto's range), whose sequential design they carry, and the
// measure job's Where they bring.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { InputError } from "../errors.ts";
import { nodeFileReader } from "../io/node-files.ts";
import type { BenchSummary } from "../schemas/summary.gen.ts";
import { makeEntry, makeReport } from "../../test/support/report-factory.ts";
import { readMeasuredResults, type ExpectedRounds } from "./measured-results.ts";

const TARGET = { baseSha: "a".repeat(40), headSha: "b".repeat(40) };
const FIXED_5: ExpectedRounds = { rounds: 5 };
/** rounds: auto, min-rounds 3, max-rounds 8. */
const AUTO: ExpectedRounds = { rounds: 8, sequential: { minRounds: 3 } };
const DESIGN = { min_rounds: 3, max_rounds: 8 };

let scratch: string;
let count = 0;
beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), "benchgate-measured-"));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function summary(
  side: "base" | "head",
  round: number,
  sequential: BenchSummary["sequential"] | undefined,
): BenchSummary {
  return {
    schema_version: 1,
    side,
    round,
    ...(sequential === undefined ? {} : { sequential }),
    commit: side === "base" ? TARGET.baseSha : TARGET.headSha,
    benchmarks: [
      {
        id: "normalize",
        suite: "micro",
        source: "criterion",
        unit: "ns",
        direction: "smaller_is_better",
        estimates: { median: 100 + round },
      },
    ],
  };
}

/**
 * A results folder with rounds 1..rounds of both sides; `change` edits the summaries by name
 * (return undefined to leave a file out).
 */
function folder(
  rounds: number,
  sequential: BenchSummary["sequential"] | undefined,
  change: (name: string, s: BenchSummary) => BenchSummary | undefined = (_, s) => s,
): string {
  const dir = path.join(scratch, `results-${++count}`);
  mkdirSync(path.join(dir, "summaries"), { recursive: true });
  writeFileSync(path.join(dir, "report.json"), JSON.stringify(makeReport({ golden: [] })));
  for (const side of ["base", "head"] as const)
    for (let round = 1; round <= rounds; round++) {
      const name = `${side}-${round}.json`;
      const s = change(name, summary(side, round, sequential));
      if (s !== undefined)
        writeFileSync(path.join(dir, "summaries", name), JSON.stringify(s, null, 2));
    }
  return dir;
}

async function refusal(dir: string, expected: ExpectedRounds): Promise<string> {
  try {
    await readMeasuredResults(nodeFileReader, dir, TARGET, expected);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).describe();
  }
  throw new Error("expected the folder to be refused");
}

describe("readMeasuredResults: a fixed count", () => {
  it("reads rounds 1 to N of both sides", async () => {
    const measured = await readMeasuredResults(
      nodeFileReader,
      folder(5, undefined),
      TARGET,
      FIXED_5,
    );
    expect(measured.base.map((s) => s.summary.round).sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5,
    ]);
    expect(measured.head).toHaveLength(5);
  });

  it("a round left out or added is refused, as before", async () => {
    expect(await refusal(folder(4, undefined), FIXED_5)).toMatch(
      /summaries: expected base rounds 1 to 5; missing 5$/,
    );
    expect(await refusal(folder(6, undefined), FIXED_5)).toMatch(
      /summaries: expected base rounds 1 to 5; unexpected 6$/,
    );
  });

  it("a summary with a sequential block is refused: the artifact cannot choose a design", async () => {
    const dir = folder(5, undefined, (name, s) =>
      name === "head-2.json" ? { ...s, sequential: DESIGN } : s,
    );
    expect(await refusal(dir, FIXED_5)).toMatch(
      /head-2\.json: has sequential min_rounds 3, max_rounds 8, but the base config has a fixed rounds: 5$/,
    );
  });
});

describe("readMeasuredResults: rounds: auto", () => {
  it.each([3, 5, 8])("accepts rounds 1 to %d (min-rounds ≤ n ≤ max-rounds)", async (n) => {
    const measured = await readMeasuredResults(nodeFileReader, folder(n, DESIGN), TARGET, AUTO);
    expect(measured.base).toHaveLength(n);
    expect(measured.head).toHaveLength(n);
  });

  it("fewer rounds than min-rounds are refused", async () => {
    expect(await refusal(folder(2, DESIGN), AUTO)).toMatch(
      /summaries: expected at least rounds 1 to 3 of both sides \(rounds: auto with min-rounds 3 and max-rounds 8\); the last round here is 2$/,
    );
  });

  it("more rounds than max-rounds are refused", async () => {
    expect(await refusal(folder(9, DESIGN), AUTO)).toMatch(
      /summaries: expected at most 8 rounds of each side \(rounds: auto with min-rounds 3 and max-rounds 8\); found round 9$/,
    );
  });

  it("a gap is refused", async () => {
    const dir = folder(6, DESIGN, (name, s) => (name === "base-4.json" ? undefined : s));
    expect(await refusal(dir, AUTO)).toMatch(
      /summaries: expected base rounds 1 to 6 \(rounds: auto: the same rounds on both sides, none left out\); missing 4$/,
    );
  });

  it("one side stopping earlier than the other is refused", async () => {
    const dir = folder(6, DESIGN, (name, s) => (name === "head-6.json" ? undefined : s));
    expect(await refusal(dir, AUTO)).toMatch(/expected head rounds 1 to 6 .*; missing 6$/);
  });

  it.each([
    ["no sequential block", undefined, "has no sequential block"],
    [
      "another min-rounds",
      { min_rounds: 2, max_rounds: 8 },
      "has sequential min_rounds 2, max_rounds 8",
    ],
    [
      "another max-rounds",
      { min_rounds: 3, max_rounds: 50 },
      "has sequential min_rounds 3, max_rounds 50",
    ],
  ] as const)("a summary with %s is refused, naming the file", async (_, sequential, said) => {
    const dir = folder(4, DESIGN, (name, s) => {
      if (name !== "base-3.json") return s;
      const rest = { ...s };
      delete rest.sequential;
      return sequential === undefined ? rest : { ...rest, sequential };
    });
    const message = await refusal(dir, AUTO);
    expect(message).toContain(`${path.join(dir, "summaries", "base-3.json")}: ${said}`);
    expect(message).toMatch(
      /but the base config has rounds: auto with min-rounds 3 and max-rounds 8$/,
    );
  });
});

describe("readMeasuredResults: the measure job's Where", () => {
  const NOTE = { note: "Where could not be computed: not yet for hyperfine suites" };
  /** A folder whose report.json has these entries (the measure job's own verdicts). */
  function withReport(benchmarks: readonly unknown[]): string {
    const dir = folder(5, undefined);
    const report = { ...makeReport({ golden: [] }), benchmarks };
    writeFileSync(path.join(dir, "report.json"), JSON.stringify(report));
    return dir;
  }

  it("returns each entry's where by suite and id, from the schema-checked report.json", async () => {
    const dir = withReport([
      makeEntry({ id: "normalize", suite: "micro", verdict: "regressed", change: 2, where: NOTE }),
      makeEntry({ id: "parse", suite: "micro" }),
    ]);
    const measured = await readMeasuredResults(nodeFileReader, dir, TARGET, FIXED_5);
    expect(measured.wheres).toBeInstanceOf(Map);
    expect([...(measured.wheres ?? new Map<string, unknown>()).values()]).toEqual([NOTE]);
    expect(measured.wheres?.size).toBe(1);
  });

  it("a malformed where fails the schema, as any malformed report.json does", async () => {
    const outside = { base: "../../etc/passwd", head: "where/1-head.callgrind", flame_diff: "x" };
    const dir = withReport([
      makeEntry({ id: "normalize", suite: "micro", where: { ...NOTE, files: outside } }),
    ]);
    expect(await refusal(dir, FIXED_5)).toMatch(/report\.json.*not a valid report\.v1/);
  });
});
