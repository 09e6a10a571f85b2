import { describe, expect, it } from "vitest";
import { format } from "prettier";
import { parse } from "yaml";
import { resolveRunConfig } from "../config/run-config.ts";
import { InputError } from "../errors.ts";
import { validateConfig } from "../schemas/validate-document.ts";
import { configSchemaUrl, starterConfig } from "./starter-config.ts";

function load(text: string): ReturnType<typeof validateConfig> {
  return validateConfig(parse(text) as unknown, "benchgate.yml");
}

describe("starterConfig", () => {
  it("writes one runnable Criterion suite per bench target", () => {
    const text = starterConfig({ benches: ["parse", "render_html"] });
    const config = load(text);
    expect(config.version).toBe(1);
    // Short processes in pairs, sequential rounds within a budget for the whole run; no long
    // Criterion flags (pairs sets the short ones).
    expect(config.schedule).toBe("pairs");
    expect(config.rounds).toBe("auto");
    expect(config["time-budget"]).toBe("15m");
    expect(config.suites).toEqual([
      { name: "parse", kind: "criterion", bench: "parse" },
      { name: "render_html", kind: "criterion", bench: "render_html" },
    ]);
    // What `benchgate run` would do with it: no error about suites, rounds or timeouts.
    const run = resolveRunConfig(config, "benchgate.yml", { needSuites: true });
    expect(run.schedule).toBe("pairs");
    expect(run.sequential).toEqual({ minRounds: 3, timeBudgetMs: 15 * 60_000 });
  });

  it("names its schema on the first line, for editors (yaml-language-server)", () => {
    const first = starterConfig({ benches: ["parse"] }).split("\n")[0];
    expect(first).toBe(`# yaml-language-server: $schema=${configSchemaUrl()}`);
    // A build from source knows no release: the schema on the default branch of the action's
    // repository (the npm package ships no schemas/).
    expect(configSchemaUrl()).toBe(
      "https://raw.githubusercontent.com/benchgate/benchgate/main/schemas/config.v1.schema.json",
    );
  });

  it("on a GitHub-hosted runner says timings confirm only large changes and counts decide small ones", () => {
    const text = starterConfig({ benches: ["parse"], runner: "github-hosted" });
    expect(load(text).rounds).toBe("auto");
    expect(text).toMatch(/GitHub-hosted runner, a shared machine/);
    expect(text).toMatch(/gungraun\n# suites count instructions/);
    expect(starterConfig({ benches: ["parse"] })).not.toMatch(/GitHub-hosted/);
  });

  it("writes sequential rounds for sharded workflows too, each shard running its own", () => {
    const text = starterConfig({ benches: ["parse"], shards: 3 });
    const config = load(text);
    expect(config.rounds).toBe("auto");
    expect(config["time-budget"]).toBe("15m");
    expect(config.schedule).toBe("pairs");
    expect(text).toContain("# Each shard runs its own rounds within it");
    expect(starterConfig({ benches: ["parse"] })).not.toContain("Each shard");
  });

  it("writes a gungraun suite per instruction-count bench target, after the Criterion ones", () => {
    const text = starterConfig({ benches: ["parse"], gungraun: ["parse_counts", "Parse"] });
    const config = load(text);
    expect(config.suites?.map((s) => [s.name, s.kind, "bench" in s ? s.bench : undefined])).toEqual(
      [
        ["parse", "criterion", "parse"],
        ["parse_counts", "gungraun", "parse_counts"],
        ["parse-2", "gungraun", "Parse"],
      ],
    );
    expect(text).toContain("docs/instruction-counts.md");
    expect(() => resolveRunConfig(config, "benchgate.yml", { needSuites: true })).not.toThrow();
    expect(() => starterConfig({ benches: [], gungraun: ["a b"] })).toThrow(/not a target name/);
  });

  it("keeps hyperfine, build, golden, budgets and statistics as commented examples", () => {
    const text = starterConfig({ benches: ["demo"] });
    for (const key of ["kind: hyperfine", "build:", "golden:", "budgets:", "statistics:"])
      expect(text).toMatch(new RegExp(`^\\s*# .*${key}`, "m"));
    expect(Object.keys(load(text)).sort()).toEqual([
      "rounds",
      "schedule",
      "suites",
      "time-budget",
      "version",
    ]);
  });

  it("without bench targets is still valid, with the suites to add commented out", () => {
    const text = starterConfig({ benches: [] });
    const config = load(text);
    expect(config.suites).toBeUndefined();
    expect(text).toContain("# suites:");
    expect(text).toContain("benchgate init --bench NAME");
  });

  it("turns target names into distinct suite names, quoting what YAML would not keep a string", () => {
    const config = load(starterConfig({ benches: ["True", "_x", "x", "X-Y", "1e5", "null"] }));
    expect(config.suites?.map((s) => [s.name, "bench" in s ? s.bench : undefined])).toEqual([
      ["true", "True"],
      ["x", "_x"],
      ["x-2", "x"],
      ["x-y", "X-Y"],
      ["1e5", "1e5"],
      ["null", "null"],
    ]);
  });

  it("refuses a name that no bench target can have", () => {
    expect(() => starterConfig({ benches: ["a b"] })).toThrow(InputError);
    expect(() => starterConfig({ benches: ["x: y"] })).toThrow(/not a target name/);
  });

  it("is already formatted as prettier formats YAML, at 80 and 100 columns", async () => {
    for (const benches of [[], ["demo", "other"]]) {
      const text = starterConfig({ benches, gungraun: benches.length > 0 ? ["counts"] : [] });
      for (const printWidth of [80, 100])
        expect(await format(text, { parser: "yaml", printWidth })).toBe(text);
    }
  });
});
