import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeFileReader } from "../../io/node-files.ts";
import { FIXTURES, asyncInputErrorOf } from "../../../test/support/fixtures.ts";
import { GUNGRAUN_TREE_LIMITS, readGungraunTree } from "./gungraun-tree.ts";

const V7 = `${FIXTURES}/gungraun-0.20`;
const V6 = `${FIXTURES}/iai-callgrind-0.16`;
const IDS = [
  "sum::sums::bench_collect collect_1000",
  "sum::sums::bench_sum large",
  "sum::sums::bench_sum small",
];

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), "benchgate-gungraun-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A copy of a captured run under the temporary folder, to edit. */
function copyRun(from: string, name: string): string {
  const to = path.join(tmp, name);
  cpSync(from, to, { recursive: true });
  return to;
}

describe.each([
  [V7, "gungraun summary v7", "tiny-gungraun"],
  [V6, "iai-callgrind summary v6", "tiny-iai-callgrind"],
])("readGungraunTree on %s", (home, toolVersion) => {
  it.each(["run-1", "run-2"])("%s: 3 benchmarks, 26 entries, in the walk's order", async (run) => {
    const read = await readGungraunTree(`${home}/${run}`, {}, nodeFileReader);
    expect(read.toolVersion).toBe(toolVersion);
    expect(read.benchmarks).toHaveLength(26);
    const primaries = read.benchmarks.filter((b) => b.secondary !== true);
    expect(primaries.map((b) => b.id)).toEqual(IDS);
    expect(primaries.every((b) => b.metric === "instructions" && b.suite === "gungraun")).toBe(
      true,
    );
    expect(new Set(read.benchmarks.map((b) => b.id)).size).toBe(26);
  });

  it("run 1 and run 2 give the same instruction counts (the counts are exact)", async () => {
    const counts = async (run: string): Promise<unknown[]> =>
      (await readGungraunTree(`${home}/${run}`, { suite: "s" }, nodeFileReader)).benchmarks
        .filter((b) => b.metric === "instructions")
        .map((b) => [b.id, b.samples]);
    expect(await counts("run-1")).toEqual([
      [IDS[0], [2275]],
      [IDS[1], [90015]],
      [IDS[2], [915]],
    ]);
    expect(await counts("run-2")).toEqual(await counts("run-1"));
  });
});

describe("readGungraunTree refuses what it cannot read as one run", () => {
  it("no summary.json: says what folder is expected and how to get the files", async () => {
    const dir = `${FIXTURES}/hyperfine-1.15`;
    expect(await asyncInputErrorOf(() => readGungraunTree(dir, {}, nodeFileReader))).toBe(
      `${dir}: no summary.json found; expected the folder gungraun (target/gungraun) or iai-callgrind (target/iai) writes; run the benchmarks with --save-summary=json (or GUNGRAUN_SAVE_SUMMARY=json, IAI_CALLGRIND_SAVE_SUMMARY=json)`,
    );
  });

  it("a missing folder, and a file given for the folder", async () => {
    const missing = path.join(tmp, "nothing-here");
    expect(await asyncInputErrorOf(() => readGungraunTree(missing, {}, nodeFileReader))).toMatch(
      new RegExp(`^${missing}: directory not found; expected the folder`),
    );
    const file = `${V7}/README.md`;
    expect(await asyncInputErrorOf(() => readGungraunTree(file, {}, nodeFileReader))).toMatch(
      new RegExp(`^${file}: not a directory; expected the folder`),
    );
  });

  it("two runs in one folder: the duplicate id names both files", async () => {
    const first = `${V7}/run-1/tiny-gungraun/sum/sums/bench_collect.collect_1000/summary.json`;
    const second = `${V7}/run-2/tiny-gungraun/sum/sums/bench_collect.collect_1000/summary.json`;
    expect(await asyncInputErrorOf(() => readGungraunTree(V7, {}, nodeFileReader))).toBe(
      `${second}: /module_path: duplicate benchmark id "sum::sums::bench_collect collect_1000": also given by ${first} (two runs' folders, or two packages with the same bench file, group and function? ingest each on its own)`,
    );
  });

  it("summaries of two versions in one folder", async () => {
    const mixed = path.join(tmp, "mixed");
    cpSync(`${V6}/run-1`, path.join(mixed, "a"), { recursive: true });
    cpSync(`${V7}/run-1`, path.join(mixed, "b"), { recursive: true });
    const first = path.join(
      mixed,
      "a/tiny-iai-callgrind/sum/sums/bench_collect.collect_1000/summary.json",
    );
    const other = path.join(
      mixed,
      "b/tiny-gungraun/sum/sums/bench_collect.collect_1000/summary.json",
    );
    expect(await asyncInputErrorOf(() => readGungraunTree(mixed, {}, nodeFileReader))).toBe(
      `${other}: /version: summary version 7, but ${first} has version 6; one folder holds the summaries of one harness version`,
    );
  });

  it("a symlinked summary.json is an error naming it, never followed or skipped", async () => {
    const home = copyRun(`${V7}/run-1`, "linked-file");
    const summary = path.join(home, "tiny-gungraun/sum/sums/bench_sum.small/summary.json");
    cpSync(summary, path.join(tmp, "outside.json"));
    unlinkSync(summary);
    symlinkSync(path.join(tmp, "outside.json"), summary);
    expect(await asyncInputErrorOf(() => readGungraunTree(home, {}, nodeFileReader))).toBe(
      `${summary}: is a symbolic link or special file; a gungraun folder must hold only regular files and directories`,
    );
  });

  it("a symlinked directory is not walked into: it is an error naming it", async () => {
    const home = copyRun(`${V7}/run-1`, "linked-dir");
    const link = path.join(home, "tiny-gungraun/sum/elsewhere");
    symlinkSync(`${V6}/run-1/tiny-iai-callgrind/sum/sums`, link);
    expect(await asyncInputErrorOf(() => readGungraunTree(home, {}, nodeFileReader))).toBe(
      `${link}: is a symbolic link or special file; a gungraun folder must hold only regular files and directories`,
    );
    const linkedHome = path.join(tmp, "linked-home");
    symlinkSync(`${V7}/run-1`, linkedHome);
    expect(await asyncInputErrorOf(() => readGungraunTree(linkedHome, {}, nodeFileReader))).toBe(
      `${linkedHome}: is a symbolic link or special file; a gungraun folder must hold only regular files and directories`,
    );
  });

  it("an unreadable summary names its file and JSON pointer", async () => {
    const home = copyRun(`${V7}/run-1`, "bad-version");
    const summary = path.join(home, "tiny-gungraun/sum/sums/bench_sum.large/summary.json");
    cpSync(`${FIXTURES}/hyperfine-1.15/basic.json`, summary);
    expect(await asyncInputErrorOf(() => readGungraunTree(home, {}, nodeFileReader))).toBe(
      `${summary}: not a gungraun summary.json: missing "version" (supported: "7" (gungraun 0.20) and "6" (iai-callgrind 0.16))`,
    );
  });
});

describe("readGungraunTree is bounded", () => {
  const home = `${V7}/run-1`;
  it.each<[string, Partial<typeof GUNGRAUN_TREE_LIMITS>, string]>([
    ["summaries", { maxSummaries: 2 }, `${home}: more than 2 summary.json files`],
    ["entries", { maxEntries: 10 }, `${home}: more than 10 entries; refusing to walk the folder`],
    [
      "entries in the result",
      { maxBenchmarks: 20 },
      `${home}: more than 20 entries (instructions and the secondary counts of every benchmark)`,
    ],
    [
      "bytes in total",
      { maxTotalBytes: 5_000 },
      `${home}: the summary.json files hold more than 5000 bytes`,
    ],
    [
      "depth",
      { maxDepth: 3 },
      `${home}/tiny-gungraun/sum/sums/bench_collect.collect_1000: a folder more than 3 levels below ${home}, which the walk does not read; gungraun and iai-callgrind write 4 (<package>/<bench file>/<group>/<function>.<id>), so something else was written into their folder`,
    ],
  ])("%s", async (_name, limits, message) => {
    expect(
      await asyncInputErrorOf(() =>
        readGungraunTree(home, {}, nodeFileReader, { ...GUNGRAUN_TREE_LIMITS, ...limits }),
      ),
    ).toBe(message);
  });

  it("the size of one summary (only the DHAT benchmark's is over 3000 bytes)", async () => {
    const file = `${home}/tiny-gungraun/sum/sums/bench_collect.collect_1000/summary.json`;
    expect(
      await asyncInputErrorOf(() =>
        readGungraunTree(home, {}, nodeFileReader, {
          ...GUNGRAUN_TREE_LIMITS,
          maxSummaryBytes: 3000,
        }),
      ),
    ).toBe(`${file}: file is too large (3716 bytes, limit 3000)`);
  });

  it("the layout's depth (4 levels) is found at the bound", async () => {
    const read = await readGungraunTree(home, {}, nodeFileReader, {
      ...GUNGRAUN_TREE_LIMITS,
      maxDepth: 4,
    });
    expect(read.benchmarks).toHaveLength(26);
  });

  it("a folder deeper than the bound is refused, naming it, not skipped", async () => {
    // The run's own summaries beside a deeper tree: before, the walk returned the run's
    // benchmarks and left the deep summary out without a word.
    const deep = path.join(tmp, "deep");
    cpSync(home, deep, { recursive: true });
    const levels = Array.from({ length: 13 }, (_, i) => `d${i}`);
    const dir = path.join(deep, ...levels);
    mkdirSync(dir, { recursive: true });
    cpSync(
      `${home}/tiny-gungraun/sum/sums/bench_sum.small/summary.json`,
      path.join(dir, "summary.json"),
    );
    expect(await asyncInputErrorOf(() => readGungraunTree(deep, {}, nodeFileReader))).toBe(
      `${dir}: a folder more than 12 levels below ${deep}, which the walk does not read; gungraun and iai-callgrind write 4 (<package>/<bench file>/<group>/<function>.<id>), so something else was written into their folder`,
    );
    // Twelve levels are read: the same summary twelve folders down is found.
    const twelve = path.join(tmp, "twelve");
    const at12 = path.join(twelve, ...levels.slice(0, 12));
    mkdirSync(at12, { recursive: true });
    cpSync(
      `${home}/tiny-gungraun/sum/sums/bench_sum.small/summary.json`,
      path.join(at12, "summary.json"),
    );
    const read = await readGungraunTree(twelve, {}, nodeFileReader);
    expect(read.benchmarks.map((b) => b.id)).toContain("sum::sums::bench_sum small");
  });
});
