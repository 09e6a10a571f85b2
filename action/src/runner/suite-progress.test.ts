import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../../test/support/fixtures.ts";
import { benchmarkEvent, SuiteProgress } from "./suite-progress.ts";

const CONSOLE = path.join(FIXTURES, "criterion-console");
const lines = (file: string): string[] => readFileSync(file, "utf8").split(/\r?\n/);

describe("benchmarkEvent on real tool output", () => {
  it.each(["0.3.2", "0.3.6", "0.4.0", "0.5.1", "0.8.2"])(
    "Criterion %s: one started id and one done per benchmark (0.3 prints both on stdout)",
    (version) => {
      const run = path.join(CONSOLE, version, "1-save-base");
      const all = [...lines(`${run}.stderr.txt`), ...lines(`${run}.stdout.txt`)];
      const started = all.map(benchmarkEvent).filter((e) => e?.kind === "started");
      const ids = [...new Set(started.map((e) => (e?.kind === "started" ? e.id : "")))];
      const analyzed = all.filter((l) => l.endsWith(": Analyzing"));
      expect(ids.length).toBeGreaterThan(0);
      expect(ids).toHaveLength(analyzed.length);
      const done = all.filter((l) => benchmarkEvent(l)?.kind === "done");
      expect(done).toHaveLength(ids.length);
    },
  );

  it("hyperfine --style basic: the command that starts and how many came before it", () => {
    const events = lines(path.join(FIXTURES, "hyperfine-1.15/basic.stdout.txt"))
      .map(benchmarkEvent)
      .filter((e) => e !== undefined);
    expect(events[0]).toEqual({ kind: "count", done: 0, id: "sleep 0.01" });
    expect(events[1]).toEqual({ kind: "count", done: 1, id: "sleep 0.02" });
    expect(events.every((e) => e.kind === "count")).toBe(true);
  });
});

describe("SuiteProgress", () => {
  function replay(expected: number | undefined, events: [number, string][]): string[] {
    let now = 0;
    const written: string[] = [];
    const progress = new SuiteProgress({
      label: "round 2/5 · head · micro",
      expected,
      clock: { now: () => now, date: () => new Date(0) },
      write: (text) => written.push(text),
    });
    for (const [at, line] of events) {
      now = at;
      progress.line(line);
    }
    return written;
  }

  const criterion = (id: string, at: number): [number, string][] => [
    [at, `Benchmarking ${id}: Warming up for 3.0000 s`],
    [at + 3000, `Benchmarking ${id}: Collecting 100 samples in estimated 5.0 s (1M iterations)`],
    [at + 8000, `Benchmarking ${id}: Analyzing`],
    [at + 8100, `${id}  time:   [1.0 µs 1.1 µs 1.2 µs]`],
  ];

  it("says how far the suite is, with the time left, at most every 5 s and never silent for 10 s", () => {
    const events = Array.from({ length: 6 }, (_, i) => criterion(`parse/${i}`, i * 8200)).flat();
    const written = replay(55, events);
    expect(written[0]).toBe(
      "round 2/5 · head · micro: 1/55 benchmarks, 0:08 elapsed, about 7:17 left (now parse/0)",
    );
    expect(written.at(-1)).toBe(
      "round 2/5 · head · micro: 6/55 benchmarks, 0:49 elapsed, about 6:41 left (now parse/5)",
    );
    // Between two lines at least 5 s, and with benchmarks of 8 s never more than 10 s.
    const times = written
      .map((w) => /(\d+):(\d\d) elapsed/.exec(w))
      .map((m) => Number(m?.[1]) * 60 + Number(m?.[2]));
    for (let i = 1; i < times.length; i++) {
      expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(5);
      expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeLessThanOrEqual(10);
    }
  });

  it("counts without a total when no earlier run says how many there are", () => {
    const written = replay(undefined, [...criterion("a", 0), ...criterion("b", 8200)]);
    expect(written.at(-1)).toMatch(
      /^round 2\/5 · head · micro: 2 benchmarks done, 0:16 elapsed \(now b\)$/,
    );
  });

  it("ignores every other line, and quotes an id it shows", () => {
    expect(benchmarkEvent("Found 4 outliers among 100 measurements (4.00%)")).toBeUndefined();
    expect(benchmarkEvent("  Time (mean ± σ):      11.9 ms ±   0.1 ms")).toBeUndefined();
    const written = replay(2, [[6000, 'Benchmarking weird"\u001b[31m: Analyzing']]);
    expect(written).toEqual([
      'round 2/5 · head · micro: 0/2 benchmarks, 0:06 elapsed (now weird\\"\\u001b[31m)',
    ]);
  });

  it("on a terminal, updates one status line in place instead, as each benchmark starts or ends", () => {
    let now = 0;
    const lines: string[] = [];
    const statuses: string[] = [];
    const progress = new SuiteProgress({
      label: "round 1/3 · base · micro",
      expected: 3,
      clock: { now: () => now, date: () => new Date(0) },
      write: (text) => lines.push(text),
      status: (text) => statuses.push(text),
    });
    for (const [at, line] of [...criterion("a", 1000), ...criterion("b", 9200)]) {
      now = at;
      progress.line(line);
    }
    expect(lines).toEqual([]);
    // Each start and end of a benchmark, but not within 250 ms of the previous status (b's start).
    expect(statuses).toEqual([
      "round 1/3 · base · micro: 0/3 benchmarks, 0:01 elapsed (now a)",
      "round 1/3 · base · micro: 1/3 benchmarks, 0:09 elapsed, about 0:18 left (now a)",
      "round 1/3 · base · micro: 2/3 benchmarks, 0:17 elapsed, about 0:09 left (now b)",
    ]);
  });
});
