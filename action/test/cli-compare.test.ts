import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT, expectInputError, runCli } from "./support/cli.ts";
import { syntheticSuite } from "./support/synthetic.ts";
import { validateReport } from "../src/schemas/validate-document.ts";
import type { BenchReport } from "../src/schemas/report.gen.ts";
import type { BenchSummary } from "../src/schemas/summary.gen.ts";

let dir: string;
const base: string[] = [];
const head: string[] = [];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "benchgate-cli-"));
  const suite = syntheticSuite({
    benchmarks: 30,
    rounds: 4,
    samples: 20,
    noise: 0.01,
    seed: 4,
    scale: (i) => (i === 3 ? 2 : 1),
  });
  for (const [files, list] of [
    [suite.base, base],
    [suite.head, head],
  ] as const) {
    for (const f of files) {
      const file = path.join(dir, f.source);
      writeFileSync(file, JSON.stringify(f.summary));
      list.push(file);
    }
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("benchgate compare (CLI)", () => {
  it("writes a valid report and markdown, prints the verdict, exits 1 on a regression", () => {
    const json = path.join(dir, "report.json");
    const md = path.join(dir, "comment.md");
    const r = runCli([
      "compare",
      "--base",
      ...base,
      "--head",
      ...head,
      "--json",
      json,
      "--markdown",
      md,
    ]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(1);
    const report = validateReport(JSON.parse(readFileSync(json, "utf8")), json);
    expect(report.verdict).toBe("fail");
    expect(report.benchmarks.filter((e) => e.verdict === "regressed").map((e) => e.id)).toEqual([
      "group/bench-3",
    ]);
    expect(report.rounds).toHaveLength(4);
    expect(readFileSync(md, "utf8")).toContain("group/bench-3");
    expect(r.stdout).toContain("group/bench-3");
  });

  it("writes the report or the markdown to standard output with -", () => {
    const json = runCli(["compare", "--base", ...base, "--head", ...head, "--json", "-"]);
    expect(json.status).toBe(1);
    expect(validateReport(JSON.parse(json.stdout), "stdout").verdict).toBe("fail");
    const md = runCli(["compare", "--base", ...base, "--head", ...head, "--markdown", "-"]);
    expect(md.stdout).toMatch(/^## ❌ benchgate: fail/);
    expect(existsSync(path.join(ROOT, "-"))).toBe(false);
  });

  it("passes A/A (head = base) with exit 0", () => {
    const r = runCli(["compare", "--base", ...base, "--head", ...base, "--quiet"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("");
  });

  it("takes settings from flags and from benchgate.yml, flags winning", () => {
    const config = path.join(dir, "benchgate.yml");
    writeFileSync(config, "version: 1\nstatistics:\n  fail-threshold: 150%\n  q: 0.01\n");
    const json = path.join(dir, "report-config.json");
    let r = runCli([
      "compare",
      "--base",
      ...base,
      "--head",
      ...head,
      "--config",
      config,
      "--json",
      json,
      "--quiet",
    ]);
    expect(r.status).toBe(0);
    let report = JSON.parse(readFileSync(json, "utf8")) as BenchReport;
    expect(report.settings.fail_threshold).toBe(1.5);
    expect(report.settings.q).toBe(0.01);
    r = runCli([
      "compare",
      "--base",
      ...base,
      "--head",
      ...head,
      "--config",
      config,
      "--fail-threshold",
      "5%",
      "--json",
      json,
      "--quiet",
    ]);
    expect(r.status).toBe(1);
    report = JSON.parse(readFileSync(json, "utf8")) as BenchReport;
    expect(report.settings.fail_threshold).toBe(0.05);
  });

  it("checks budgets from benchgate.yml on the head side and fails the gate when one breaks", () => {
    const config = path.join(dir, "budgets.yml");
    writeFileSync(
      config,
      [
        "version: 1",
        "statistics:",
        "  fail-threshold: 500%", // no regression verdict: only the budgets can fail
        "budgets:",
        '  - benchmark: "group/bench-1*"', // bench-1, bench-10..19: 2–20 µs
        '    median: "< 1ms"',
        '  - benchmark: "group/bench-3"', // 4 µs in base, ×2 in head
        '    median: "< 5us"',
        "",
      ].join("\n"),
    );
    const json = path.join(dir, "report-budgets.json");
    const r = runCli([
      "compare",
      "--base",
      ...base,
      "--head",
      ...head,
      "--config",
      config,
      "--json",
      json,
      "--quiet",
    ]);
    expect(r.status).toBe(1);
    const report = JSON.parse(readFileSync(json, "utf8")) as BenchReport;
    expect(report.counts.regressed).toBe(0);
    expect(report.verdict).toBe("fail");
    const broken = report.budgets.filter((b) => !b.ok);
    expect(broken.map((b) => b.benchmark)).toEqual(["group/bench-3"]);
    expect(report.budgets.filter((b) => b.ok).length).toBe(11);
    expect(report.reasons.join(" ")).toMatch(/1 of 12 budget checks broken/);
  });

  it("names the config file and the rule of a bad budget (exit 2)", () => {
    const config = path.join(dir, "bad-budget.yml");
    writeFileSync(config, 'version: 1\nbudgets:\n  - benchmark: "x/*"\n    median: "< 25"\n');
    const r = runCli(["compare", "--base", ...base, "--head", ...head, "--config", config]);
    expect(expectInputError(r)).toContain(`${config}: /budgets/0/median: budget rule 1`);
  });

  it("explains usage errors in one line with exit 2", () => {
    for (const args of [
      ["compare", "--base", base[0]!],
      ["compare", "--base", base[0]!, "--head", head[0]!, "--bogus"],
      ["compare", "--base", base[0]!, "--head", head[0]!, "--q", "2"],
      [
        "compare",
        "--base",
        base[0]!,
        "--head",
        head[0]!,
        "--fail-threshold",
        "0.1%",
        "--noise-floor",
        "1%",
      ],
      ["frobnicate"],
    ]) {
      expectInputError(runCli(args), args.join(" "));
    }
  });

  it("every command has --help", () => {
    for (const command of ["ingest", "validate", "compare"]) {
      const r = runCli([command, "--help"]);
      expect(r.status).toBe(0);
      expect(r.stdout).toContain(`Usage: benchgate ${command}`);
    }
    expect(runCli(["--help"]).stdout).toContain("Commands:");
  });
});

describe("bad input: exit 2, one line naming the file, no stack, nothing half-written", () => {
  const good = (): Record<string, unknown> & { benchmarks: Record<string, unknown>[] } =>
    JSON.parse(readFileSync(base[0]!, "utf8")) as BenchSummary as never;
  const cases: [string, () => string | Buffer][] = [
    ["truncated JSON", () => readFileSync(base[0]!, "utf8").slice(0, 500)],
    [
      "NaN literal",
      () => readFileSync(base[0]!, "utf8").replace(/"samples":\[[0-9.e+-]+/, '"samples":[NaN'),
    ],
    [
      "Infinity via 1e400",
      () => readFileSync(base[0]!, "utf8").replace(/"samples":\[[0-9.e+-]+/, '"samples":[1e400'),
    ],
    [
      "negative value",
      () => readFileSync(base[0]!, "utf8").replace(/"samples":\[[0-9.e+-]+/, '"samples":[-5'),
    ],
    [
      "duplicate ids",
      () => {
        const s = good();
        s.benchmarks[1]!.id = s.benchmarks[0]!.id;
        return JSON.stringify(s);
      },
    ],
    [
      "__proto__ as id",
      () => {
        const s = good();
        s.benchmarks[0]!.id = "__proto__";
        return JSON.stringify(s);
      },
    ],
    [
      "__proto__ as key",
      () =>
        readFileSync(base[0]!, "utf8").replace(
          '"schema_version":1',
          '"__proto__":{"x":1},"schema_version":1',
        ),
    ],
    [
      "10,000-deep nesting",
      () =>
        `{"schema_version":1,"side":"base","round":1,"benchmarks":${"[".repeat(10000)}${"]".repeat(10000)}}`,
    ],
    [
      "wrong schema (hyperfine export)",
      () => JSON.stringify({ results: [{ command: "x", mean: 1, times: [1] }] }),
    ],
    [
      "extra property",
      () => {
        const s = good();
        s.benchmarks[0]!.colour = "red";
        return JSON.stringify(s);
      },
    ],
    ["empty file", () => ""],
    ["binary garbage", () => Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x80])],
  ];

  it.each(cases)("%s", (_name, make) => {
    const bad = path.join(dir, `bad-${_name.replace(/\W+/g, "-")}.json`);
    writeFileSync(bad, make());
    const out = path.join(dir, `never-${_name.replace(/\W+/g, "-")}.json`);
    const r = runCli(["compare", "--base", bad, "--head", ...head, "--json", out]);
    expect(expectInputError(r)).toContain(bad);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    expect(runCli(["validate", bad]).status).toBe(2);
  });

  it("a 200 MB file is refused before it is read", () => {
    const big = path.join(dir, "huge.json");
    writeFileSync(big, "");
    rmSync(big);
    // A sparse file: 200 MB on paper, nothing on disk.
    const fd = openSync(big, "w");
    ftruncateSync(fd, 200 * 1024 * 1024);
    closeSync(fd);
    const r = runCli(["validate", big]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/huge\.json: file is too large \(209715200 bytes/);
    rmSync(big);
  });

  it("a missing file is named", () => {
    const r = runCli(["compare", "--base", path.join(dir, "nope.json"), "--head", head[0]!]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/nope\.json: file not found/);
  });
});

describe("benchgate compare: no fail-open pairing or missing data (real Criterion output)", () => {
  const tree = path.join(ROOT, "action/test/fixtures/criterion-0.8.2");
  const ingest = (baseline: string, side: string, round: number, out: string): string => {
    const file = path.join(dir, out);
    const r = runCli([
      "ingest",
      "criterion",
      tree,
      "--baseline",
      baseline,
      "--side",
      side,
      "--round",
      String(round),
      "-o",
      file,
    ]);
    expect(r.status, r.stderr).toBe(0);
    return file;
  };
  /** The same run, every time × factor (a head that is `factor` times slower). */
  const slower = (file: string, factor: number, out: string): string => {
    const s = JSON.parse(readFileSync(file, "utf8")) as BenchSummary;
    for (const b of s.benchmarks) {
      b.samples = (b.samples ?? []).map((x) => x * factor);
      for (const [k, v] of Object.entries(b.estimates))
        if (typeof v === "object" && v !== null)
          (b.estimates as Record<string, unknown>)[k] = {
            ...v,
            point: v.point * factor,
            ...(v.lower === undefined ? {} : { lower: v.lower * factor }),
            ...(v.upper === undefined ? {} : { upper: v.upper * factor }),
          };
    }
    const target = path.join(dir, out);
    writeFileSync(target, JSON.stringify(s));
    return target;
  };

  it("refuses base round 1 against a 2x slower head labelled round 4 (exit 2, naming the rounds)", () => {
    const b = ingest("base", "base", 1, "pair-base-1.json");
    const h4 = slower(ingest("base", "head", 4, "pair-head-4.json"), 2, "pair-head-4x2.json");
    const line = expectInputError(runCli(["compare", "--base", b, "--head", h4]));
    expect(line).toMatch(
      /rounds do not pair: base round 1 has no head round; head round 4 has no base round/,
    );
    expect(line).toMatch(/--unpaired/);
    // --unpaired compares them as independent runs: the 2x slower head fails the gate.
    const unpaired = runCli(["compare", "--base", b, "--head", h4, "--unpaired"]);
    expect(unpaired.status, unpaired.stderr).toBe(1);
    // Labelled round 1, the same files fail as well.
    const h1 = slower(ingest("base", "head", 1, "pair-head-1.json"), 2, "pair-head-1x2.json");
    expect(runCli(["compare", "--base", b, "--head", h1]).status).toBe(1);
  });

  it("fails when head lacks every base benchmark, and only warns with --missing warn", () => {
    const b = ingest("base", "base", 1, "missing-base.json");
    const s = JSON.parse(readFileSync(b, "utf8")) as BenchSummary;
    s.side = "head";
    s.benchmarks = s.benchmarks.slice(0, 1).map((x) => ({ ...x, id: "renamed suite/only" }));
    const h = path.join(dir, "missing-head.json");
    writeFileSync(h, JSON.stringify(s));
    const r = runCli(["compare", "--base", b, "--head", h]);
    expect(r.status).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/missing in head/);
    expect(runCli(["compare", "--base", b, "--head", h, "--missing", "warn"]).status).toBe(0);
  });

  it("refuses a head with zero benchmarks (exit 2)", () => {
    const b = ingest("base", "base", 1, "empty-base.json");
    const s = JSON.parse(readFileSync(b, "utf8")) as BenchSummary;
    s.side = "head";
    s.benchmarks = [];
    const h = path.join(dir, "empty-head.json");
    writeFileSync(h, JSON.stringify(s));
    expect(expectInputError(runCli(["compare", "--base", b, "--head", h]))).toMatch(
      /head has no benchmarks \(1 file read\)/,
    );
  });
});

describe("benchgate compare: strict inputs, one line naming the file and the place", () => {
  const compareTo = (json: string, ...args: string[]) =>
    runCli(["compare", "--base", ...base, "--head", ...head, "--json", json, ...args]);

  it("refuses a summary that gives a key twice (JSON.parse would keep the last)", () => {
    const bad = path.join(dir, "twice-unit.json");
    writeFileSync(
      bad,
      readFileSync(base[0]!, "utf8").replace('"unit":"ns"', '"unit":"ns","unit":"ms"'),
    );
    const json = path.join(dir, "never-twice-unit.json");
    const r = runCli(["compare", "--base", bad, "--head", ...head, "--json", json]);
    expect(expectInputError(r)).toBe(
      `benchgate: error: ${bad}: /benchmarks/0/unit: duplicate key "unit" (an object may name each key once)`,
    );
    expect(existsSync(json)).toBe(false);
    expect(expectInputError(runCli(["validate", bad]))).toContain(`${bad}: /benchmarks/0/unit:`);
  });

  it("refuses an unknown YAML tag in the config, printing nothing but the error", () => {
    // Before, Node printed two YAMLWarning lines before the error.
    const config = path.join(dir, "tagged.yml");
    writeFileSync(config, "version: 1\nrounds: !foo 3\n");
    const json = path.join(dir, "never-tagged.json");
    expect(expectInputError(compareTo(json, "--config", config))).toBe(
      `benchgate: error: ${config}: invalid YAML (Unresolved tag: !foo at line 2, column 9)`,
    );
    expect(existsSync(json)).toBe(false);
    expect(expectInputError(runCli(["validate", config]))).toContain("!foo");
  });

  it.each([
    [
      "/golden/checksums",
      "golden:\n  checksums: ../../etc/x\n  commands: [{name: a, command: [echo]}]\n",
      '"../../etc/x" must be a relative path inside the repository',
    ],
    [
      "/suites/0/output",
      "suites:\n  - {name: u, kind: custom, command: [h], output: ../../../../etc/passwd}\n",
      '"../../../../etc/passwd" must be a relative path inside {out}',
    ],
  ])("refuses %s leaving its base when the config is validated", (pointer, yaml, problem) => {
    // Before, `validate` passed these; `run` and `golden` refused them only later, and a custom
    // suite's output was joined to {out} without any check.
    const config = path.join(dir, `outside-${pointer.replace(/\W+/g, "-")}.yml`);
    writeFileSync(config, `version: 1\n${yaml}`);
    expect(expectInputError(runCli(["validate", "--schema", "config", config]))).toBe(
      `benchgate: error: ${config}: ${pointer}: ${problem}, without ".." parts: it has a ".." part`,
    );
    const json = path.join(dir, `never-outside-${pointer.replace(/\W+/g, "-")}.json`);
    expect(expectInputError(compareTo(json, "--config", config))).toContain(
      `${config}: ${pointer}: ${problem}`,
    );
    expect(existsSync(json)).toBe(false);
  });

  it("names the files of both sides when a benchmark's unit differs", () => {
    const relabelled = head.map((file, i) => {
      const copy = path.join(dir, `unit-ms-${i}.json`);
      writeFileSync(copy, readFileSync(file, "utf8").replaceAll('"unit":"ns"', '"unit":"ms"'));
      return copy;
    });
    const json = path.join(dir, "never-units.json");
    const r = runCli(["compare", "--base", ...base, "--head", ...relabelled, "--json", json]);
    const line = expectInputError(r);
    expect(line).toMatch(
      /^benchgate: error: \S+unit-ms-\d\.json: \/benchmarks\/\d+\/unit: benchmark ".+" is measured in ms \(smaller_is_better\) in head round \d, but in ns \(smaller_is_better\) in base round \d \(\S+\.json\)$/,
    );
    expect(base.some((file) => line.endsWith(`(${file})`))).toBe(true);
    expect(existsSync(json)).toBe(false);
  });
});
