import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InputError } from "../../errors.ts";
import { nodeFileReader } from "../../io/node-files.ts";
import type { DirEntry, FileReader } from "../../ports/files.ts";
import { validateSummary } from "../../schemas/validate-document.ts";
import { CRITERION_TREE_LIMITS, ingestCriterionTree } from "./criterion-tree.ts";
import { FIXTURES, SHARED, asyncInputErrorOf } from "../../../test/support/fixtures.ts";

const OPTIONS = { side: "head", round: 1 } as const;
const HOSTILE = "evil|name `tick` <b>x</b> @someone #12";

/** Every captured Criterion tree: the shared samples and the project's own (when present). */
const TREES = [
  `${SHARED}/criterion-0.8.2`,
  ...readdirSync(FIXTURES)
    .filter((name) => /^criterion-\d/.test(name))
    .map((name) => `${FIXTURES}/${name}`),
];

function baselinesOf(tree: string): string[] {
  const found = new Set<string>();
  const visit = (dir: string, depth: number): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === "report" || entry.name === "change") continue;
      const sub = path.join(dir, entry.name);
      if (depth >= 1 && existsSync(path.join(sub, "benchmark.json"))) found.add(entry.name);
      else if (depth < 3) visit(sub, depth + 1);
    }
  };
  visit(tree, 0);
  return [...found].sort();
}

describe.each(TREES)("ingestCriterionTree on %s", (tree) => {
  it.each(baselinesOf(tree))("baseline %s: a valid summary keyed by full_id", async (baseline) => {
    const summary = await ingestCriterionTree(tree, { ...OPTIONS, baseline }, nodeFileReader);
    expect(() => validateSummary(summary, tree)).not.toThrow();
    expect(summary.benchmarks.length).toBeGreaterThan(0);
    for (const b of summary.benchmarks) {
      expect(b.metadata?.["baseline"]).toBe(baseline);
      expect(b.samples?.length).toBeGreaterThanOrEqual(10);
      expect(b.id).not.toMatch(/_b_x__b_/); // never the sanitized directory name
    }
    const flat = summary.benchmarks.filter((b) => b.metadata?.["sampling_mode"] === "Flat");
    for (const b of flat) expect(b.metadata).not.toHaveProperty("slope");
    if (existsSync(`${tree}/evil_name \`tick\` _b_x__b_ @someone #12/${baseline}`)) {
      expect(summary.benchmarks.map((b) => b.id)).toContain(HOSTILE);
    }
  });
});

describe("ingestCriterionTree on the project's criterion-0.8.2 capture", () => {
  const tree = `${FIXTURES}/criterion-0.8.2`;
  it.runIf(existsSync(`${tree}/throughput`))("maps every throughput variant", async () => {
    const summary = await ingestCriterionTree(
      tree,
      { ...OPTIONS, baseline: "base" },
      nodeFileReader,
    );
    const byId = new Map(summary.benchmarks.map((b) => [b.id, b]));
    expect(byId.get("sum_vec/1000")?.throughput).toEqual([
      { kind: "elements", per_iteration: 1000 },
    ]);
    expect(byId.get("flat/fnv1a/65536")?.throughput).toEqual([
      { kind: "bytes", per_iteration: 65536 },
    ]);
    expect(byId.get("throughput/bytes_decimal")?.throughput).toEqual([
      { kind: "bytes", per_iteration: 4096, decimal: true },
    ]);
    expect(byId.get("throughput/bits")?.throughput).toEqual([
      { kind: "bits", per_iteration: 32768 },
    ]);
    expect(byId.get("throughput/elements_and_bytes")?.throughput).toEqual([
      { kind: "elements", per_iteration: 256 },
      { kind: "bytes", per_iteration: 5728 },
    ]);
    expect(byId.get("fib 20")?.throughput).toBeUndefined();
    expect(byId.has("bidi \u202etxt.exe\u200b zero-width")).toBe(true);
    expect([...byId.keys()].some((id) => id.length > 100 && id.endsWith("0123456789"))).toBe(true);
  });
});

describe("ingestCriterionTree on hand-built trees", () => {
  let tmp: string;
  let home: string;
  beforeEach(() => {
    tmp = mkdtempSync(path.join(tmpdir(), "benchgate-ingest-"));
    home = path.join(tmp, "proj", "target", "criterion");
    mkdirSync(path.dirname(home), { recursive: true });
    cpSync(`${SHARED}/criterion-0.8.2`, home, { recursive: true });
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  const ids = async (dir: string, baseline = "base"): Promise<string[]> =>
    (await ingestCriterionTree(dir, { ...OPTIONS, baseline }, nodeFileReader)).benchmarks.map(
      (b) => b.id,
    );

  it("accepts target/criterion, target/ and the project root", async () => {
    const expected = ["fib 20", "sort/unstable/1000", "sum_vec/1000"];
    expect(await ids(home)).toEqual(expected);
    writeFileSync(
      path.join(tmp, "proj", "target", "CACHEDIR.TAG"),
      "Signature: 8a477f597d28d172789f06886806bc55\n",
    );
    expect(await ids(path.join(tmp, "proj", "target"))).toEqual(expected);
    expect(await ids(path.join(tmp, "proj"))).toEqual(expected);
    expect(await ids(`${home}/`)).toEqual(expected);
  });

  it("reads new/ only when the baseline is literally new", async () => {
    expect(await ids(home, "new")).toEqual([
      "fib 20",
      "flat/fib25",
      "sort/unstable/1000",
      "sum_vec/1000",
    ]);
  });

  it("lists the baselines that exist when the requested one is missing", async () => {
    const message = await asyncInputErrorOf(() => ids(home, "pr-head"));
    expect(message).toBe(
      `${home}: no benchmark has baseline "pr-head" (found: base, flatdemo, head, new)`,
    );
  });

  it("says so when there are no benchmarks at all", async () => {
    const empty = path.join(tmp, "empty");
    mkdirSync(empty);
    expect(await asyncInputErrorOf(() => ids(empty))).toBe(
      `${empty}: no Criterion benchmarks found (no <benchmark>/<baseline>/benchmark.json within 3 levels)`,
    );
    expect(await asyncInputErrorOf(() => ids(path.join(tmp, "missing")))).toBe(
      `${path.join(tmp, "missing")}: Criterion directory not found`,
    );
  });

  it("fails when two directories claim the same full_id", async () => {
    cpSync(path.join(home, "fib 20"), path.join(home, "fib 20_2"), { recursive: true });
    const message = await asyncInputErrorOf(() => ids(home));
    expect(message).toContain('duplicate benchmark id "fib 20": claimed by');
    expect(message).toContain("fib 20_2/base/benchmark.json: /full_id:");
  });

  it("ignores report/ and change/ directories and anything deeper than three group levels", async () => {
    mkdirSync(path.join(home, "report", "base"), { recursive: true });
    writeFileSync(path.join(home, "report", "base", "benchmark.json"), "not json");
    const deep = path.join(home, "a", "b", "c", "d", "base");
    mkdirSync(deep, { recursive: true });
    cpSync(path.join(home, "fib 20", "base"), deep, { recursive: true });
    expect(await ids(home)).toEqual(["fib 20", "sort/unstable/1000", "sum_vec/1000"]);
  });

  it("refuses a symlinked directory, benchmark.json or result file, naming it", async () => {
    // Each is an error on its own; they are planted one at a time, each where the breadth-first
    // walk looks before the ones already there.
    const refused = (at: string): string =>
      `${at}: is a symbolic link or special file; a Criterion tree must hold only regular files and directories`;
    const sample = path.join(home, "fib 20", "base", "sample.json");
    rmSync(sample);
    symlinkSync("/etc/hostname", sample);
    expect(await asyncInputErrorOf(() => ids(home))).toBe(
      `${sample}: is a symbolic link; refusing to follow it`,
    );
    const benchmarkJson = path.join(home, "sum_vec", "1000", "base", "benchmark.json");
    renameSync(benchmarkJson, path.join(tmp, "benchmark.json"));
    symlinkSync(path.join(tmp, "benchmark.json"), benchmarkJson);
    expect(await asyncInputErrorOf(() => ids(home))).toBe(refused(benchmarkJson));
    const baseline = path.join(home, "fib 20", "base");
    rmSync(baseline, { recursive: true });
    symlinkSync(path.join(home, "sum_vec", "1000", "base"), baseline);
    expect(await asyncInputErrorOf(() => ids(home))).toBe(refused(baseline));
    symlinkSync(path.join(home, "fib 20"), path.join(home, "linked"));
    expect(await asyncInputErrorOf(() => ids(home))).toBe(refused(path.join(home, "linked")));
    // target/ itself: found as the way to the tree, never walked through.
    const proj = path.join(tmp, "proj");
    renameSync(path.join(proj, "target"), path.join(tmp, "real-target"));
    symlinkSync(path.join(tmp, "real-target"), path.join(proj, "target"));
    expect(await asyncInputErrorOf(() => ids(proj))).toBe(refused(path.join(proj, "target")));
  });

  it("bounds the walk by entries and files by bytes", async () => {
    const tight = { ...CRITERION_TREE_LIMITS, maxEntries: 5 };
    const walk = (): Promise<unknown> =>
      ingestCriterionTree(home, { ...OPTIONS, baseline: "base" }, nodeFileReader, tight);
    expect(await asyncInputErrorOf(walk)).toBe(
      `${home}: Criterion tree has more than 5 entries; refusing to walk it`,
    );

    const huge = path.join(home, "sum_vec", "1000", "base", "sample.json");
    writeFileSync(huge, "");
    truncateSync(huge, 210 * 1024 * 1024); // sparse: costs no disk
    expect(await asyncInputErrorOf(() => ids(home))).toMatch(
      new RegExp(
        `^${huge.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: file is too large \\(220200960 bytes, limit 16777216\\)$`,
      ),
    );
  });

  it.each([
    [
      "truncated JSON",
      "estimates.json",
      '{"mean":{"confidence_interval":',
      /estimates\.json: invalid JSON/,
    ],
    [
      "NaN",
      "sample.json",
      '{"sampling_mode":"Linear","iters":[1],"times":[NaN]}',
      /sample\.json: invalid JSON/,
    ],
    [
      "Infinity",
      "sample.json",
      '{"sampling_mode":"Linear","iters":[1],"times":[Infinity]}',
      /sample\.json: invalid JSON/,
    ],
    [
      "1e400",
      "sample.json",
      '{"sampling_mode":"Linear","iters":[1],"times":[1e400]}',
      /sample\.json: \/times\/0: number is out of range/,
    ],
    ["an empty file", "benchmark.json", "", /benchmark\.json: file is empty/],
    [
      "deep nesting",
      "sample.json",
      `${"[".repeat(5000)}${"]".repeat(5000)}`,
      /sample\.json: JSON is nested deeper than 32 levels/,
    ],
    [
      "__proto__ as a key",
      "estimates.json",
      '{"__proto__":{"polluted":true},"mean":{}}',
      /estimates\.json: \/__proto__: object key "__proto__" is not allowed/,
    ],
    [
      "not UTF-8",
      "benchmark.json",
      Buffer.from([0x7b, 0xff, 0xfe, 0x7d]),
      /benchmark\.json: file is not valid UTF-8/,
    ],
  ])("rejects %s in a file of the tree", async (_name, file, content, message) => {
    writeFileSync(path.join(home, "fib 20", "base", file), content);
    expect(await asyncInputErrorOf(() => ids(home))).toMatch(message);
  });

  it.each(["../base", "report", "", "a/b"])("rejects the baseline name %j", async (baseline) => {
    expect(await asyncInputErrorOf(() => ids(home, baseline))).toMatch(
      /^invalid Criterion baseline name/,
    );
  });
});

/**
 * An in-memory FileReader with the port's symlink semantics (ports/files.ts, as io/node-files.ts
 * implements them): a link in the last part of a path is never followed (kindOf and list say
 * "other", readText refuses it), while links in earlier parts are followed, as the OS does.
 */
function fakeReader(files: ReadonlyMap<string, string>, links: ReadonlyMap<string, string>) {
  const dirs = new Set<string>();
  for (const file of [...files.keys(), ...links.keys()]) {
    for (let at = file.lastIndexOf("/"); at > 0; at = file.lastIndexOf("/", at - 1)) {
      dirs.add(file.slice(0, at));
    }
  }
  const resolve = (path: string): string => {
    const parts = path.replace(/\/+$/, "").split("/");
    for (let i = 2; i < parts.length; i++) {
      const target = links.get(parts.slice(0, i).join("/"));
      if (target !== undefined) return resolve([target, ...parts.slice(i)].join("/"));
    }
    return parts.join("/");
  };
  const kind = (path: string): DirEntry["kind"] | undefined =>
    links.has(path) ? "other" : files.has(path) ? "file" : dirs.has(path) ? "dir" : undefined;
  const reader: FileReader = {
    readText(path) {
      const at = resolve(path);
      if (links.has(at))
        throw new InputError("is a symbolic link; refusing to follow it", { source: path });
      const text = files.get(at);
      if (text === undefined) throw new InputError("file not found", { source: path });
      return Promise.resolve(text);
    },
    list(dir) {
      const at = resolve(dir);
      if (!dirs.has(at)) throw new InputError("not a directory", { source: dir });
      const names = [...new Set([...files.keys(), ...links.keys(), ...dirs])]
        .filter((p) => p.startsWith(`${at}/`) && !p.slice(at.length + 1).includes("/"))
        .sort();
      return Promise.resolve(
        names.map((p) => ({ name: p.slice(at.length + 1), kind: kind(p) ?? "other" })),
      );
    },
    kindOf(path) {
      return Promise.resolve(kind(resolve(path)));
    },
  };
  return reader;
}

describe("ingestCriterionTree: a symlink anywhere in the tree is an error naming it", () => {
  const shared = (bench: string, file: string): string =>
    readFileSync(path.join(SHARED, "criterion-0.8.2", bench, "base", file), "utf8");
  const HOME = "/p/target/criterion";
  /** Two benchmarks under /p/target/criterion, and a copy of one outside the tree. */
  const files = (): Map<string, string> => {
    const map = new Map<string, string>();
    for (const [dir, bench] of [
      [`${HOME}/fib 20/base`, "fib 20"],
      [`${HOME}/sum_vec/1000/base`, "sum_vec/1000"],
      [`${HOME}/sum_vec/1000/head`, "sum_vec/1000"],
      ["/elsewhere/fib/base", "fib 20"],
    ] as const) {
      for (const file of ["benchmark.json", "estimates.json", "sample.json"]) {
        map.set(`${dir}/${file}`, shared(bench, file));
      }
    }
    map.set(`${HOME}/report/index.html`, "<html>");
    return map;
  };
  const ingest = (tree: Map<string, string>, links: Map<string, string>): Promise<string[]> =>
    ingestCriterionTree("/p", { ...OPTIONS, baseline: "base" }, fakeReader(tree, links)).then(
      (summary) => summary.benchmarks.map((b) => b.id),
    );
  const refused = (at: string): string =>
    `${at}: is a symbolic link or special file; a Criterion tree must hold only regular files and directories`;

  it("reads the tree when nothing in it is a link", async () => {
    expect(await ingest(files(), new Map())).toEqual(["fib 20", "sum_vec/1000"]);
  });

  it.each([
    ["a benchmark directory", `${HOME}/linked`, "/elsewhere/fib"],
    ["a group directory", `${HOME}/group`, "/elsewhere"],
    ["the baseline directory read", `${HOME}/sum_vec/1000/base`, "/elsewhere/fib/base"],
    ["another baseline's directory", `${HOME}/sum_vec/1000/new`, "/elsewhere/fib/base"],
    ["report/", `${HOME}/sum_vec/report`, "/elsewhere"],
    ["benchmark.json", `${HOME}/fib 20/base/benchmark.json`, "/elsewhere/fib/base/benchmark.json"],
    ["target/", "/p/target", "/elsewhere"],
    ["target/criterion", HOME, "/elsewhere"],
  ])("%s", async (_name, link, target) => {
    const tree = files();
    for (const file of [...tree.keys()]) if (file.startsWith(`${link}/`)) tree.delete(file);
    expect(await asyncInputErrorOf(() => ingest(tree, new Map([[link, target]])))).toBe(
      refused(link),
    );
  });

  it("refuses a symlinked estimates.json too (the reader does), so no link is ever skipped", async () => {
    const tree = files();
    const estimates = `${HOME}/sum_vec/1000/base/estimates.json`;
    tree.delete(estimates);
    const links = new Map([[estimates, "/elsewhere/fib/base/estimates.json"]]);
    expect(await asyncInputErrorOf(() => ingest(tree, links))).toBe(
      `${estimates}: is a symbolic link; refusing to follow it`,
    );
  });
});
