// `ingest criterion DIR --baseline NAME`: a Criterion.rs output tree (./criterion-tree.ts), and
// `--baselines GLOB --out-dir D`: every matching baseline in one walk, one summary each.
import { InputError } from "../../errors.ts";
import type { DirectoryFormatKind } from "../format-kind.ts";
import { field, hasField, isObject } from "../json-guards.ts";
import { baselineGlob, namedRuns } from "./baseline-pattern.ts";
import { ingestCriterionTree, readCriterionBaselines } from "./criterion-tree.ts";

export const criterionFormat: DirectoryFormatKind<"criterion"> = {
  name: "criterion",
  title: "Criterion",
  input: "directory",
  baseline: "the name given to --save-baseline",
  help: [
    "a Criterion.rs 0.3.3–0.8 tree (target/criterion or its parent);",
    "benchmarks saved with --save-baseline NAME, keyed by full_id",
  ],
  // One file of the tree handed to a file format.
  signatures: [
    {
      strength: "shape",
      is: "a Criterion ≤ 0.3.2 sample.json",
      matches: (data) =>
        Array.isArray(data) &&
        data.length === 2 &&
        Array.isArray(data[0]) &&
        Array.isArray(data[1]),
    },
    {
      strength: "fields",
      is: "a Criterion benchmark.json",
      matches: (data) => isObject(data) && hasField(data, "full_id"),
    },
    {
      strength: "fields",
      is: "a Criterion estimates.json",
      matches: (data) =>
        isObject(data) &&
        hasField(data, "mean") &&
        hasField(data, "median") &&
        isObject(field(data, "mean")),
    },
    {
      strength: "fields",
      is: "a Criterion sample.json",
      matches: (data) =>
        isObject(data) && hasField(data, "sampling_mode") && hasField(data, "iters"),
    },
  ],
  read: async (dir, { baseline, ...options }, reader) => {
    // `ingest` refuses a missing --baseline for a kind that declares one; this keeps the type honest.
    if (baseline === undefined) throw new InputError("ingest criterion needs --baseline NAME");
    const tree = await ingestCriterionTree(dir, { ...options, baseline }, reader);
    return { benchmarks: tree.benchmarks };
  },
  readBaselines: async (dir, { baselines, suite }, reader) => {
    const pattern = baselineGlob(baselines);
    const read = await readCriterionBaselines(
      dir,
      pattern,
      suite === undefined ? {} : { suite },
      reader,
    );
    return namedRuns(read.keys(), dir).map((run) => ({
      ...run,
      benchmarks: read.get(run.baseline) ?? [],
    }));
  },
};
