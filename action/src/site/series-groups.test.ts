import { describe, expect, it } from "vitest";
import { secondaryLeads } from "./series-groups.ts";

const s = (id: string, suite = "g"): { suite: string; id: string } => ({ suite, id });

describe("secondaryLeads", () => {
  it("folds `<id> [metric]` under `<id>` of the same suite", () => {
    const series = [
      s("sum small"),
      s("sum small [l1_hits]"),
      s("sum small [ram_hits]"),
      s("sum big [l1_hits]", "other"),
      s("sum big"),
    ];
    expect(secondaryLeads(series)).toEqual([null, 0, 0, null, null]);
  });

  it("groups orphans (only DHAT ran) under the first of them", () => {
    const series = [s("heap [total_bytes]"), s("heap [total_blocks]"), s("heap [at_t_gmax_bytes]")];
    expect(secondaryLeads(series)).toEqual([null, 0, 0]);
  });

  it("folds a load endpoint's p95, p99.9 and errors under its req/s", () => {
    const series = [
      s("home req/s", "oha"),
      s("home p50", "oha"),
      s("home p95", "oha"),
      s("home p99", "oha"),
      s("home p99.9", "oha"),
      s("home errors", "oha"),
      s("solo p95", "oha"),
    ];
    expect(secondaryLeads(series)).toEqual([null, null, 0, null, 0, 0, null]);
  });
});
