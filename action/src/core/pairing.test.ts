// The ways a comparison used to fail open: rounds that do not pair, a head without the base's
// benchmarks, an empty head. Each must now fail the gate or stop with a clear input error.
import { describe, expect, it } from "vitest";
import { compare } from "./compare-summaries.ts";
import { resolveSettings } from "./settings.ts";
import { InputError } from "../errors.ts";
import type { SourcedSummary } from "./pairing.ts";
import { scaleSamples, syntheticSuite } from "../../test/support/synthetic.ts";

const settings = resolveSettings();

function relabel(files: readonly SourcedSummary[], round: number): SourcedSummary[] {
  return files.map((f) => ({ ...f, summary: { ...f.summary, round } }));
}

function scaled(files: readonly SourcedSummary[], factor: number): SourcedSummary[] {
  return scaleSamples(files, () => factor);
}

describe("pairing rounds", () => {
  const one = syntheticSuite({ benchmarks: 4, rounds: 1, samples: 30, noise: 0.01, seed: 21 });

  it("refuses a base round 1 against a head round 4, naming both", () => {
    const head = relabel(scaled(one.head, 2), 4);
    expect(() => compare(one.base, head, { settings })).toThrow(InputError);
    expect(() => compare(one.base, head, { settings })).toThrow(
      /rounds do not pair: base round 1 has no head round; head round 4 has no base round.*--unpaired/,
    );
  });

  it("compares them as independent runs with --unpaired, and a 2x slower head fails", () => {
    const head = relabel(scaled(one.head, 2), 4);
    const report = compare(one.base, head, {
      settings: resolveSettings({ unpaired: true }),
    });
    expect(report.verdict).toBe("fail");
    expect(report.settings.unpaired).toBe(true);
    // The same files as round 1 vs round 1 fail too: the label no longer decides.
    expect(compare(one.base, relabel(scaled(one.head, 2), 1), { settings }).verdict).toBe("fail");
  });

  it("refuses a head round without its base round among several", () => {
    const s = syntheticSuite({ benchmarks: 4, rounds: 3, samples: 10, noise: 0.01, seed: 22 });
    expect(() => compare(s.base.slice(0, 2), s.head, { settings })).toThrow(
      /head round 3 has no base round/,
    );
  });

  it("tests unpaired multi-run sides with the pooled variance and honest df", () => {
    const s = syntheticSuite({ benchmarks: 12, rounds: 5, samples: 10, noise: 0.02, seed: 23 });
    const head = s.head.map((f, i) => ({ ...f, summary: { ...f.summary, round: 10 + i } }));
    const report = compare(s.base, head, { settings: resolveSettings({ unpaired: true }) });
    expect(report.counts.regressed).toBe(0);
    expect(report.settings.method).toMatch(/^unpaired/);
    for (const e of report.benchmarks) expect(e.sd!.df).toBeGreaterThanOrEqual(8);
  });
});

describe("units that disagree", () => {
  it("name the file and benchmark of each side in one line", () => {
    // Before, the error named no file: "… in one file and … in head round 2".
    const s = syntheticSuite({ benchmarks: 2, rounds: 2, samples: 5, noise: 0.01, seed: 1 });
    const head = s.head.map((f) =>
      f.summary.round === 2
        ? {
            ...f,
            summary: {
              ...f.summary,
              benchmarks: f.summary.benchmarks.map((b) => ({ ...b, unit: "ms" })),
            },
          }
        : f,
    );
    let error: unknown;
    try {
      compare(s.base, head, { settings });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InputError);
    const base1 = s.base.find((f) => f.summary.round === 1)?.source;
    const head2 = head.find((f) => f.summary.round === 2)?.source;
    const id = s.base[0]?.summary.benchmarks[0]?.id ?? "";
    expect((error as InputError).describe()).toBe(
      `${head2}: /benchmarks/0/unit: benchmark ${JSON.stringify(id)} is measured in ms (smaller_is_better) in head round 2, but in ns (smaller_is_better) in base round 1 (${base1})`,
    );
  });
});

describe("missing and empty sides", () => {
  const s = syntheticSuite({ benchmarks: 8, rounds: 3, samples: 10, noise: 0.01, seed: 24 });
  const renamed = (files: readonly SourcedSummary[]): SourcedSummary[] =>
    files.map((f) => ({
      ...f,
      summary: {
        ...f.summary,
        benchmarks: f.summary.benchmarks.slice(0, 1).map((b) => ({ ...b, id: "renamed/only" })),
      },
    }));

  it("fails the gate when head lacks every base benchmark (1 new, 8 missing)", () => {
    const report = compare(s.base, renamed(s.head), { settings });
    expect(report.counts.missing).toBe(8);
    expect(report.counts.new).toBe(1);
    expect(report.verdict).toBe("fail");
    expect(report.reasons.join("\n")).toMatch(/8 benchmarks of base missing in head/);
  });

  it("only warns with missing: warn", () => {
    const report = compare(s.base, renamed(s.head), {
      settings: resolveSettings({ missing: "warn" }),
    });
    expect(report.verdict).toBe("pass");
    expect(report.reasons.join("\n")).toMatch(/missing in head \(missing: warn\)/);
  });

  it("refuses a head with zero benchmarks", () => {
    const empty = s.head.map((f) => ({ ...f, summary: { ...f.summary, benchmarks: [] } }));
    expect(() => compare(s.base, empty, { settings })).toThrow(
      /head has no benchmarks \(3 files read\)/,
    );
  });

  it("refuses summaries from different sequential designs", () => {
    const declared = s.head.map((f) => ({
      ...f,
      summary: { ...f.summary, sequential: { min_rounds: 3, max_rounds: 10 } },
    }));
    expect(() => compare(s.base, declared, { settings })).toThrow(/one sequential run/);
  });
});
