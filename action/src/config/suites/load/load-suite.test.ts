import { describe, expect, it } from "vitest";
import { resolveRunConfig } from "../../run-config.ts";
import { errorOf } from "../../../../test/support/input-error.ts";
import type { BenchgateConfig } from "../../../schemas/config.gen.ts";
import { stepsOf, type ServiceStep } from "../suite-kind.ts";
import { loadSuite, type LoadSuitePlan } from "./load-suite.ts";
import { headToHeadPairs } from "../variants.ts";

type Raw = NonNullable<BenchgateConfig["suites"]>[number];

function plan(suite: Record<string, unknown>): LoadSuitePlan {
  const config = resolveRunConfig(
    { version: 1, suites: [{ name: "api", kind: "load", ...suite } as Raw] },
    "benchgate.yml",
    { needSuites: true },
  );
  return config.suites[0] as LoadSuitePlan;
}

const paths = { worktree: "/w/head", target: "/t/head" };
const context = { side: "head", round: 2, tag: "head-2", dir: "/out/raw/api", paths } as const;

function groups(p: LoadSuitePlan): ServiceStep[] {
  return stepsOf(loadSuite.step(p, context)) as ServiceStep[];
}

const SERVER = ["{target}/release/demo-server", "--port", "{port}"];

describe("kind: load", () => {
  it("starts the side's server and runs oha once per endpoint, writing JSON to stdout", () => {
    const p = plan({
      server: SERVER,
      ready: "/health",
      endpoints: [
        { name: "health", path: "/health" },
        {
          name: "stats",
          path: "/stats?count=1000",
          method: "POST",
          body: "x",
          headers: { "X-A": "1" },
        },
      ],
      duration: "2s",
      connections: 8,
    });
    const [group, ...more] = groups(p);
    expect(more).toEqual([]);
    expect(group?.service).toMatchObject({
      label: "server",
      idPrefix: "api/server",
      argv: ["/t/head/release/demo-server", "--port", "{port}"],
      readyUrl: "http://127.0.0.1:{port}/health",
      readyTimeoutMs: 30_000,
      stopGraceMs: 5000,
    });
    const [health, stats] = group?.steps ?? [];
    expect(health?.argv).toEqual([
      "oha",
      "--no-tui",
      "--output-format",
      "json",
      "-o",
      "/out/raw/api/head-2/1-1.json",
      "-w",
      "--stats-success-breakdown",
      "-z",
      "2s",
      "-c",
      "8",
      "http://127.0.0.1:{port}/health",
    ]);
    expect(health?.freshDir).toBe("/out/raw/api/head-2");
    expect(health?.output).toEqual({
      format: "oha",
      path: "/out/raw/api/head-2/1-1.json",
      name: "health",
      missing: "did not write 1-1.json",
    });
    expect(stats?.argv.slice(12)).toEqual([
      "-m",
      "POST",
      "-H",
      "X-A: 1",
      "-d",
      "x",
      "http://127.0.0.1:{port}/stats?count=1000",
    ]);
    expect(stats?.freshDir).toBeUndefined();
  });

  it("runs a fixed rate with latency correction, and an unrecorded warm-up first", () => {
    const p = plan({
      server: SERVER,
      endpoints: [{ name: "h", path: "/" }],
      rate: 500,
      warmup: "500ms",
    });
    const [warm, measured] = groups(p)[0]?.steps ?? [];
    expect(warm?.unread).toBe(true);
    expect(warm?.argv).toContain("0.5s");
    expect(measured?.unread).toBeUndefined();
    expect(measured?.argv).toEqual(
      expect.arrayContaining(["-q", "500", "--latency-correction", "5s"]),
    );
  });

  it("gives each variant its own server, paths and ids, and pairs them head to head", () => {
    const suite = {
      server: SERVER,
      endpoints: [{ name: "health", path: "/health" }],
      variants: [
        { name: "rust" },
        {
          name: "python",
          server: ["python3", "{worktree}/server.py", "{port}"],
          paths: { health: "/health/liveness" },
          ready: "/ready",
        },
      ],
    };
    const [rust, python] = groups(plan(suite));
    expect(rust?.service.idPrefix).toBe("api/rust/server");
    expect(rust?.steps[0]?.output.name).toBe("rust/health");
    expect(python?.service.argv).toEqual(["python3", "/w/head/server.py", "{port}"]);
    expect(python?.service.readyUrl).toBe("http://127.0.0.1:{port}/ready");
    expect(python?.steps[0]?.argv.at(-1)).toBe("http://127.0.0.1:{port}/health/liveness");
    expect(python?.steps[0]?.output.path).toBe("/out/raw/api/head-2/2-1.json");
    const pairs = headToHeadPairs({
      version: 1,
      suites: [{ name: "api", kind: "load", ...suite } as unknown as Raw],
    });
    expect(pairs.map((x) => [x.benchmark, x.reference.id, x.other.id])).toEqual([
      ["health req/s", "rust/health req/s", "python/health req/s"],
      ["health p99", "rust/health p99", "python/health p99"],
    ]);
  });

  it("runs another generator with its placeholders filled in", () => {
    const p = plan({
      server: SERVER,
      endpoints: [{ name: "h", path: "/x" }],
      generator: {
        command: [
          "k6",
          "run",
          "--summary-export",
          "{out}",
          "-e",
          "URL={url}",
          "-e",
          "D={duration}",
          "-e",
          "C={connections}",
          "script.js",
        ],
        format: "k6",
      },
    });
    const step = groups(p)[0]?.steps[0];
    expect(step?.argv).toEqual([
      "k6",
      "run",
      "--summary-export",
      "/out/raw/api/head-2/1-1.json",
      "-e",
      "URL=http://127.0.0.1:{port}/x",
      "-e",
      "D=5",
      "-e",
      "C=50",
      "script.js",
    ]);
    expect(step?.output.format).toBe("k6");
    expect(step?.output.missing).toBe("did not write 1-1.json");
  });

  it("keeps the endpoints a filter or the open benchmarks name", () => {
    const p = plan({
      server: SERVER,
      endpoints: [
        { name: "health", path: "/" },
        { name: "stats", path: "/s" },
      ],
    });
    expect(loadSuite.filter(p, /^stats/, "stats")?.endpoints.map((e) => e.name)).toEqual(["stats"]);
    expect(loadSuite.filter(p, /nothing/, "nothing")).toBeUndefined();
    const open = { ids: ["health p99"], active: new Set(["health p99"]) };
    expect(loadSuite.narrow(p, open)?.plan.endpoints.map((e) => e.name)).toEqual(["health"]);
  });

  it("refuses what the schema cannot say", () => {
    const bad = (suite: Record<string, unknown>, message: RegExp, jsonPath: string): void => {
      const error = errorOf(() => plan(suite));
      expect(error.message).toMatch(message);
      expect(error.jsonPath).toBe(jsonPath);
    };
    const endpoints = [{ name: "h", path: "/" }];
    bad({ endpoints }, /needs `server:`/, "/suites/0");
    bad(
      { endpoints, variants: [{ name: "a", server: SERVER }, { name: "b" }] },
      /variant "b" has no server/,
      "/suites/0/variants/1",
    );
    bad(
      { server: SERVER, endpoints, variants: [{ name: "a" }, { name: "a" }] },
      /variant name/,
      "/suites/0/variants/1/name",
    );
    bad(
      {
        server: SERVER,
        endpoints,
        variants: [{ name: "a", paths: { nope: "/x" } }, { name: "b" }],
      },
      /not one of the suite's endpoints/,
      "/suites/0/variants/0/paths",
    );
    bad(
      { server: SERVER, endpoints: [{ name: "h", path: "/", body: "x" }] },
      /has a body but method GET/,
      "/suites/0/endpoints/0/body",
    );
    bad(
      { server: SERVER, endpoints: [...endpoints, ...endpoints] },
      /endpoint name/,
      "/suites/0/endpoints/1/name",
    );
  });
});
