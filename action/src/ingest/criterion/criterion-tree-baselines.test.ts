// Several baselines in one walk (`ingest criterion DIR --baselines GLOB`), on the real tree of a
// recorded 5-round run (bench/data/aa-tiny-bench-0.1.0: base-1…5 and head-1…5, benchmarks one to
// three group levels deep, hostile ids).
import { cpSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nodeFileReader } from "../../io/node-files.ts";
import type { FileReader } from "../../ports/files.ts";
import { ingest, ingestBaselines } from "../index.ts";
import { asyncInputErrorOf } from "../../../test/support/fixtures.ts";
import { baselineGlob } from "./baseline-pattern.ts";
import {
  CRITERION_TREE_LIMITS,
  ingestCriterionTree,
  readCriterionBaselines,
} from "./criterion-tree.ts";

const TREE = decodeURIComponent(
  new URL("../../../../bench/data/aa-tiny-bench-0.1.0/criterion", import.meta.url).pathname,
);
const ROUNDS = ["1", "2", "3", "4", "5"];
const ALL = [...ROUNDS.map((r) => `base-${r}`), ...ROUNDS.map((r) => `head-${r}`)];
/** Benchmark directories at the deepest group level (group/function/value). */
const DEEPEST = ["flat/fnv1a/65536", "sort/unstable/1000"];

/** The real reader, recording what it was asked for; `slow` files answer 50 ms late. */
function recording(slow: ReadonlySet<string> = new Set()): {
  reader: FileReader;
  read: string[];
  checked: string[];
} {
  const read: string[] = [];
  const checked: string[] = [];
  const reader: FileReader = {
    async readText(file, maxBytes) {
      read.push(file);
      if (slow.has(file)) await new Promise((resolve) => setTimeout(resolve, 50));
      return nodeFileReader.readText(file, maxBytes);
    },
    list: (dir) => nodeFileReader.list(dir),
    kindOf(file) {
      checked.push(file);
      return nodeFileReader.kindOf(file);
    },
  };
  return { reader, read, checked };
}

describe("readCriterionBaselines on a recorded 5-round tree", () => {
  it("reads every baseline in one walk, each exactly as the one-baseline ingest reads it", async () => {
    const { reader, read } = recording();
    const all = await readCriterionBaselines(TREE, baselineGlob("*"), {}, reader);
    expect([...all.keys()]).toEqual(ALL);
    for (const baseline of ALL) {
      const one = await ingestCriterionTree(
        TREE,
        { baseline, side: "x", round: 1 },
        nodeFileReader,
      );
      expect(all.get(baseline)).toEqual(one.benchmarks);
      expect(one.benchmarks).toHaveLength(11);
    }
    // Three files per benchmark and baseline, each read once.
    expect(read).toHaveLength(3 * 11 * 10);
    expect(new Set(read).size).toBe(read.length);
  });

  it.each([
    ["base-*", ALL.slice(0, 5)],
    ["head-?", ALL.slice(5)],
    ["*-3", ["base-3", "head-3"]],
    ["head-4", ["head-4"]],
  ])("%s reads only the baselines it matches", async (glob, expected) => {
    const { reader, read } = recording();
    const found = await readCriterionBaselines(TREE, baselineGlob(glob), {}, reader);
    expect([...found.keys()]).toEqual(expected);
    const readFrom = new Set(read.map((file) => path.basename(path.dirname(file))));
    expect([...readFrom].sort()).toEqual(expected);
  });

  it("one baseline: no file of another is read, and none is even stat'ed at the deepest level", async () => {
    const { reader, read, checked } = recording();
    const summary = await ingestCriterionTree(
      TREE,
      { baseline: "head-2", side: "head", round: 2 },
      reader,
    );
    expect(summary.benchmarks).toHaveLength(11);
    expect(read.every((file) => file.includes("/head-2/"))).toBe(true);
    for (const dir of DEEPEST) {
      // What was stat'ed inside this benchmark directory's baseline directories.
      const inside = checked.filter(
        (file) => path.dirname(path.dirname(file)) === `${TREE}/${dir}`,
      );
      expect(inside).toEqual([`${TREE}/${dir}/head-2/benchmark.json`]);
    }
  });

  it("names the baselines that exist when the glob matches none", async () => {
    expect(
      await asyncInputErrorOf(() =>
        readCriterionBaselines(TREE, baselineGlob("pr-*"), {}, nodeFileReader),
      ),
    ).toBe(`${TREE}: no baseline matches "pr-*" (found: ${ALL.join(", ")})`);
  });

  it("caps the bytes read over all baselines, not per baseline", async () => {
    const one = recording();
    await readCriterionBaselines(TREE, baselineGlob("base-1"), {}, one.reader);
    let bytes = 0;
    for (const file of one.read) bytes += (await nodeFileReader.readText(file, 1 << 24)).length;
    const limits = { ...CRITERION_TREE_LIMITS, maxTotalBytes: bytes * 2 };
    const exactlyOne = await readCriterionBaselines(
      TREE,
      baselineGlob("base-1"),
      {},
      nodeFileReader,
      limits,
    );
    expect(exactlyOne.get("base-1")).toHaveLength(11);
    expect(
      await asyncInputErrorOf(() =>
        readCriterionBaselines(TREE, baselineGlob("*"), {}, nodeFileReader, limits),
      ),
    ).toBe(`${TREE}: Criterion tree holds more than ${bytes * 2} bytes of results`);
  });
});

describe("ingestBaselines: one validated summary per baseline", () => {
  it("gives each summary the side and round of its name, equal to ingest of that baseline", async () => {
    const summaries = await ingestBaselines(
      "criterion",
      TREE,
      { baselines: "*", suite: "tiny", version: "9.9.9" },
      nodeFileReader,
    );
    expect(summaries.map((s) => [s.baseline, s.summary.side, s.summary.round])).toEqual(
      ALL.map((b) => [b, b.slice(0, 4), Number(b.slice(5))]),
    );
    for (const { baseline, summary } of summaries) {
      const one = await ingest(
        "criterion",
        TREE,
        { baseline, side: summary.side, round: summary.round, suite: "tiny", version: "9.9.9" },
        nodeFileReader,
      );
      expect(JSON.stringify(summary)).toBe(JSON.stringify(one));
    }
  });

  it("refuses --baselines for a kind that has no baselines", async () => {
    expect(
      await asyncInputErrorOf(() =>
        ingestBaselines("gungraun", TREE, { baselines: "*" }, nodeFileReader),
      ),
    ).toBe("ingest gungraun reads no baselines; --baselines is for criterion");
  });
});

describe("readCriterionBaselines on a copy with planted problems", () => {
  let tmp: string;
  let home: string;
  beforeEach(() => {
    tmp = mkdtempSync(path.join(tmpdir(), "benchgate-baselines-"));
    home = path.join(tmp, "criterion");
    cpSync(TREE, home, { recursive: true });
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  const readAll = (reader: FileReader = nodeFileReader): Promise<unknown> =>
    readCriterionBaselines(home, baselineGlob("base-*"), {}, reader);

  it("reports the first bad file in walk order, whichever fails first", async () => {
    // fib 20 (one level) comes before sum_vec/1000 (two levels); its bad file answers late.
    const early = path.join(home, "fib 20", "base-2", "estimates.json");
    const late = path.join(home, "sum_vec", "1000", "base-1", "estimates.json");
    writeFileSync(early, '{"mean":');
    writeFileSync(late, '{"mean":');
    const { reader } = recording(new Set([early]));
    expect(await asyncInputErrorOf(() => readAll(reader))).toMatch(
      new RegExp(`^${early.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: invalid JSON`),
    );
  });

  it("refuses a symlinked baseline directory even when the glob leaves it out", async () => {
    const link = path.join(home, "fib 20", "head-3");
    renameSync(link, path.join(tmp, "head-3"));
    symlinkSync(path.join(tmp, "head-3"), link);
    expect(await asyncInputErrorOf(() => readAll())).toBe(
      `${link}: is a symbolic link or special file; a Criterion tree must hold only regular files and directories`,
    );
  });

  it("refuses a symlinked result file of a matched baseline", async () => {
    const sample = path.join(home, "sort", "unstable", "1000", "base-4", "sample.json");
    rmSync(sample);
    symlinkSync(path.join(home, "sort", "unstable", "1000", "base-3", "sample.json"), sample);
    expect(await asyncInputErrorOf(() => readAll())).toBe(
      `${sample}: is a symbolic link; refusing to follow it`,
    );
  });

  it("refuses two directories claiming one full_id within a baseline", async () => {
    cpSync(path.join(home, "fib 20"), path.join(home, "fib 20_2"), { recursive: true });
    const message = await asyncInputErrorOf(() => readAll());
    expect(message).toContain('duplicate benchmark id "fib 20": claimed by');
    expect(message).toContain("fib 20_2/base-1/benchmark.json: /full_id:");
  });
});
