import { describe, expect, it } from "vitest";
import { FIXTURES, inputErrorOf, loadJson } from "../../../test/support/fixtures.ts";
import { parseGungraunSummary } from "./gungraun-summary.ts";

// The real captures: gungraun 0.20 writes summary version 7, iai-callgrind 0.16 version 6.
const V7 = `${FIXTURES}/gungraun-0.20`;
const V6 = `${FIXTURES}/iai-callgrind-0.16`;
const COLLECT = "sum/sums/bench_collect.collect_1000/summary.json";
const SMALL = "sum/sums/bench_sum.small/summary.json";
const v7File = (run: string, rest: string): string => `${V7}/${run}/tiny-gungraun/${rest}`;
const v6File = (run: string, rest: string): string => `${V6}/${run}/tiny-iai-callgrind/${rest}`;

type Json = Record<string, unknown>;
/** A deep copy of a real summary, for one edit. */
async function copyOf(file: string): Promise<Json> {
  return structuredClone(await loadJson(file)) as Json;
}
function profiles(doc: Json): Json[] {
  return doc["profiles"] as Json[];
}
/** The metrics map of a profile's total, in either version. */
function totalOf(doc: Json, i: number): Json {
  const profile = profiles(doc)[i] as Json;
  if (doc["version"] === "7")
    return ((profile["data"] as Json)["total"] as Json)["metrics"] as Json;
  const summary = ((profile["summaries"] as Json)["total"] as Json)["summary"] as Json;
  return Object.values(summary)[0] as Json;
}

/** [id, metric, unit, value, secondary] of every entry. */
function rows(doc: unknown, source = "summary.json"): unknown[][] {
  return parseGungraunSummary(doc, source, "gungraun").benchmarks.map((b) => [
    b.id,
    b.metric,
    b.unit,
    b.samples?.[0],
    b.secondary === true,
  ]);
}

describe("parseGungraunSummary on the real captures", () => {
  // The values are those the harnesses printed on their consoles (console.txt) for run 2.
  it("v7 (gungraun 0.20): Callgrind's instructions first, then its cache counts and DHAT's heap counts", async () => {
    const file = v7File("run-2", COLLECT);
    const summary = parseGungraunSummary(await loadJson(file), file, "gungraun");
    expect(summary.version).toBe("7");
    expect(summary.id).toBe("sum::sums::bench_collect collect_1000");
    const id = "sum::sums::bench_collect collect_1000";
    expect(rows(await loadJson(file))).toEqual([
      [id, "instructions", "instructions", 2275, false],
      [`${id} [estimated_cycles]`, "estimated_cycles", "cycles", 7492, true],
      [`${id} [l1_hits]`, "l1_hits", "hits", 2732, true],
      [`${id} [ll_hits]`, "ll_hits", "hits", 0, true],
      [`${id} [ram_hits]`, "ram_hits", "hits", 136, true],
      [`${id} [total_rw]`, "total_rw", "accesses", 2868, true],
      [`${id} [total_bytes]`, "total_bytes", "B", 8000, true],
      [`${id} [total_blocks]`, "total_blocks", "blocks", 1, true],
      [`${id} [at_t_gmax_bytes]`, "at_t_gmax_bytes", "B", 8000, true],
      [`${id} [at_t_gmax_blocks]`, "at_t_gmax_blocks", "blocks", 1, true],
      [`${id} [at_t_end_bytes]`, "at_t_end_bytes", "B", 0, true],
      [`${id} [at_t_end_blocks]`, "at_t_end_blocks", "blocks", 0, true],
      [`${id} [reads_bytes]`, "reads_bytes", "B", 0, true],
      [`${id} [writes_bytes]`, "writes_bytes", "B", 8000, true],
    ]);
    const [primary, cycles, , , , , bytes] = summary.benchmarks;
    expect(primary).toEqual({
      id,
      suite: "gungraun",
      source: "gungraun",
      unit: "instructions",
      metric: "instructions",
      deterministic: true,
      direction: "smaller_is_better",
      sample_kind: "per_process",
      samples: [2275],
      estimates: { median: 2275 },
      metadata: { tool: "Callgrind" },
    });
    expect(cycles).toMatchObject({
      secondary: true,
      deterministic: true,
      metadata: { tool: "Callgrind" },
    });
    expect(bytes).toMatchObject({
      secondary: true,
      deterministic: true,
      metadata: { tool: "DHAT" },
    });
  });

  it("v6 (iai-callgrind 0.16): the same entries from the wrapped values", async () => {
    const file = v6File("run-2", COLLECT);
    const summary = parseGungraunSummary(await loadJson(file), file, "mine");
    expect(summary.version).toBe("6");
    const id = "sum::sums::bench_collect collect_1000";
    expect(rows(await loadJson(file)).slice(0, 7)).toEqual([
      [id, "instructions", "instructions", 2275, false],
      [`${id} [estimated_cycles]`, "estimated_cycles", "cycles", 7526, true],
      [`${id} [l1_hits]`, "l1_hits", "hits", 2731, true],
      [`${id} [ll_hits]`, "ll_hits", "hits", 0, true],
      [`${id} [ram_hits]`, "ram_hits", "hits", 137, true],
      [`${id} [total_rw]`, "total_rw", "accesses", 2868, true],
      [`${id} [total_bytes]`, "total_bytes", "B", 8000, true],
    ]);
    expect(summary.benchmarks).toHaveLength(14);
    expect(summary.benchmarks.every((b) => b.suite === "mine" && b.source === "gungraun")).toBe(
      true,
    );
  });

  it.each([
    ["v7", v7File],
    ["v6", v6File],
  ])("%s: run 1 (new values only) and run 2 (new and old) read the same counts", async (_v, at) => {
    for (const rest of [COLLECT, SMALL]) {
      expect(rows(await loadJson(at("run-1", rest)))).toEqual(
        rows(await loadJson(at("run-2", rest))),
      );
    }
  });
});

describe("parseGungraunSummary reads the current run only", () => {
  it("v7: an old value that differs is not read; a metric with only an old value is left out", async () => {
    const doc = await copyOf(v7File("run-2", SMALL));
    const metrics = totalOf(doc, 0);
    metrics["Ir"] = { change: { diff_pct: "-50", factor: "0.5" }, values: { new: 915, old: 1830 } };
    metrics["TotalRW"] = { values: { old: 1125 } };
    const got = rows(doc);
    expect(got[0]).toEqual([
      "sum::sums::bench_sum small",
      "instructions",
      "instructions",
      915,
      false,
    ]);
    expect(got.map((r) => r[1])).not.toContain("total_rw");
  });

  it("v6: Both is [new, old]; Right (old only) is left out", async () => {
    const doc = await copyOf(v6File("run-2", SMALL));
    const metrics = totalOf(doc, 0);
    metrics["Ir"] = { diffs: null, metrics: { Both: [{ Int: 915 }, { Int: 1830 }] } };
    metrics["TotalRW"] = { diffs: null, metrics: { Right: { Int: 1125 } } };
    const got = rows(doc);
    expect(got[0]?.[3]).toBe(915);
    expect(got.map((r) => r[1])).not.toContain("total_rw");
  });
});

describe("parseGungraunSummary: ids, tools and profiles", () => {
  it("a benchmark without an id is named by its module path alone, as the console prints it", async () => {
    const doc = await copyOf(v7File("run-1", SMALL));
    doc["id"] = null;
    expect(parseGungraunSummary(doc, "s.json", "g").id).toBe("sum::sums::bench_sum");
  });

  it("a benchmark without a Callgrind profile has only secondary entries", async () => {
    const doc = await copyOf(v7File("run-1", COLLECT));
    doc["profiles"] = profiles(doc).slice(1);
    const got = parseGungraunSummary(doc, "s.json", "g").benchmarks;
    expect(got).toHaveLength(8);
    expect(got.every((b) => b.secondary === true)).toBe(true);
  });

  it("reads Cachegrind like Callgrind, error counts of Memcheck, and skips Massif", async () => {
    const doc = await copyOf(v7File("run-1", COLLECT));
    const [callgrind, dhat] = profiles(doc) as [Json, Json];
    callgrind["tool"] = "Cachegrind";
    // Memcheck's total as gungraun 0.20 writes it: four counts, no old values on a first run.
    const memcheck = structuredClone(dhat);
    memcheck["tool"] = "Memcheck";
    (memcheck["data"] as Json)["total"] = {
      metrics: {
        Contexts: { values: { new: 1 } },
        Errors: { values: { new: 2 } },
        SuppressedContexts: { values: { new: 0 } },
        SuppressedErrors: { values: { new: 0 } },
      },
      regressions: [],
    };
    const massif = structuredClone(dhat);
    massif["tool"] = "Massif";
    (massif["data"] as Json)["total"] = { metrics: {}, regressions: [] };
    doc["profiles"] = [callgrind, memcheck, massif];
    const got = parseGungraunSummary(doc, "s.json", "g").benchmarks;
    expect(got[0]).toMatchObject({ metric: "instructions", metadata: { tool: "Cachegrind" } });
    expect(got.map((b) => b.metric)).toEqual([
      "instructions",
      "estimated_cycles",
      "l1_hits",
      "ll_hits",
      "ram_hits",
      "total_rw",
      "memcheck_errors",
    ]);
    expect(got[6]).toMatchObject({
      id: "sum::sums::bench_collect collect_1000 [memcheck_errors]",
      unit: "errors",
      samples: [2],
      secondary: true,
    });
  });

  it("v6: reads an ErrorTool summary, and a None summary gives nothing", async () => {
    const doc = await copyOf(v6File("run-1", COLLECT));
    const [callgrind, dhat] = profiles(doc) as [Json, Json];
    const drd = structuredClone(dhat);
    drd["tool"] = "DRD";
    ((drd["summaries"] as Json)["total"] as Json)["summary"] = {
      ErrorTool: { Errors: { diffs: null, metrics: { Left: { Int: 4 } } } },
    };
    const bbv = structuredClone(dhat);
    bbv["tool"] = "BBV";
    ((bbv["summaries"] as Json)["total"] as Json)["summary"] = "None";
    doc["profiles"] = [callgrind, drd, bbv];
    const got = parseGungraunSummary(doc, "s.json", "g").benchmarks;
    expect(got.map((b) => [b.metric, b.samples?.[0]]).slice(-1)).toEqual([["drd_errors", 4]]);
    expect(got).toHaveLength(7);
  });

  it("a profile of a tool benchgate does not read gives no entry", async () => {
    const doc = await copyOf(v7File("run-1", SMALL));
    (profiles(doc)[0] as Json)["tool"] = "Massif";
    expect(parseGungraunSummary(doc, "s.json", "g").benchmarks).toEqual([]);
  });
});

describe("parseGungraunSummary rejects what it cannot read exactly", () => {
  const edits: [string, string, (doc: Json) => void, string][] = [
    [
      "an unknown summary version",
      "run-1",
      (doc) => {
        doc["version"] = "8";
      },
      's.json: /version: summary version "8" is not supported (supported: "7" (gungraun 0.20) and "6" (iai-callgrind 0.16))',
    ],
    [
      "no version",
      "run-1",
      (doc) => {
        delete doc["version"];
      },
      's.json: not a gungraun summary.json: missing "version" (supported: "7" (gungraun 0.20) and "6" (iai-callgrind 0.16))',
    ],
    [
      "a fractional count",
      "run-1",
      (doc) => {
        totalOf(doc, 0)["Ir"] = { values: { new: 915.5 } };
      },
      "s.json: /profiles/0/data/total/metrics/Ir/values/new: expected an integer count, found 915.5",
    ],
    [
      "a count beyond 2^53 − 1",
      "run-1",
      (doc) => {
        totalOf(doc, 0)["L1hits"] = { values: { new: 2 ** 64 } };
      },
      "s.json: /profiles/0/data/total/metrics/L1hits/values/new: count 18446744073709552000 is larger than 9007199254740991: benchgate would lose its precision",
    ],
    [
      "a negative count",
      "run-1",
      (doc) => {
        totalOf(doc, 0)["Ir"] = { values: { new: -1 } };
      },
      "s.json: /profiles/0/data/total/metrics/Ir/values/new: a count must not be negative (found -1)",
    ],
    [
      "a count given as text",
      "run-1",
      (doc) => {
        totalOf(doc, 0)["Ir"] = { values: { new: "915" } };
      },
      "s.json: /profiles/0/data/total/metrics/Ir/values/new: expected an integer count, found a string",
    ],
    [
      "a metric without values",
      "run-1",
      (doc) => {
        totalOf(doc, 0)["Ir"] = { new: 915 };
      },
      "s.json: /profiles/0/data/total/metrics/Ir/values: expected an object, found nothing (the field is missing)",
    ],
    [
      "an empty id",
      "run-1",
      (doc) => {
        doc["id"] = " ";
      },
      "s.json: /id: id is empty",
    ],
    [
      "no module path",
      "run-1",
      (doc) => {
        delete doc["module_path"];
      },
      "s.json: /module_path: expected a string, found nothing (the field is missing)",
    ],
    [
      "two instruction-counting profiles",
      "run-1",
      (doc) => {
        const second = structuredClone(profiles(doc)[0] as Json);
        second["tool"] = "Cachegrind";
        profiles(doc).push(second);
      },
      "s.json: /profiles/1: profiles Callgrind and Cachegrind both report instructions; benchgate reads one profile per metric",
    ],
  ];
  it.each(edits)("v7: %s", async (_name, run, edit, message) => {
    const doc = await copyOf(v7File(run, SMALL));
    edit(doc);
    expect(inputErrorOf(() => parseGungraunSummary(doc, "s.json", "g"))).toBe(message);
  });

  it.each<[string, (metrics: Json) => void, string]>([
    [
      "a Float where a count is read",
      (m) => {
        m["Ir"] = { diffs: null, metrics: { Left: { Float: 915 } } };
      },
      '/Ir/metrics/Left: expected an integer count ({"Int": n}), found a "Float"',
    ],
    [
      "a fractional Int",
      (m) => {
        m["Ir"] = { diffs: null, metrics: { Left: { Int: 1.5 } } };
      },
      "/Ir/metrics/Left/Int: expected an integer count, found 1.5",
    ],
    [
      "Both with one value",
      (m) => {
        m["Ir"] = { diffs: null, metrics: { Both: [{ Int: 915 }] } };
      },
      "/Ir/metrics/Both: expected [new, old], found 1 items",
    ],
    [
      "neither Left, Right nor Both",
      (m) => {
        m["Ir"] = { diffs: null, metrics: { New: { Int: 915 } } };
      },
      '/Ir/metrics: expected "Left", "Right" or "Both"',
    ],
  ])("v6: %s", async (_name, edit, end) => {
    const doc = await copyOf(v6File("run-1", SMALL));
    edit(totalOf(doc, 0));
    expect(inputErrorOf(() => parseGungraunSummary(doc, "s.json", "g"))).toBe(
      `s.json: /profiles/0/summaries/total/summary/Callgrind${end}`,
    );
  });

  it("v6: a summary wrapped under another tool's key", async () => {
    const doc = await copyOf(v6File("run-1", SMALL));
    (profiles(doc)[0] as Json)["tool"] = "Cachegrind";
    expect(inputErrorOf(() => parseGungraunSummary(doc, "s.json", "g"))).toBe(
      's.json: /profiles/0/summaries/total/summary: expected {"Cachegrind": {…}} for tool Cachegrind, found keys ["Callgrind"]',
    );
  });

  it("a document that is not a summary object", () => {
    expect(inputErrorOf(() => parseGungraunSummary([1, 2], "s.json", "g"))).toBe(
      "s.json: expected a gungraun summary.json object, found an array",
    );
  });
});
