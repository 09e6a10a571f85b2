// `kind: load`: an HTTP server under load (docs/load-tests.md). Per side and round, each variant's
// server (one, without `variants:`) is started from the side's build on a free port, polled until
// ready, loaded endpoint by endpoint by oha (or another generator), then stopped; the runner
// (runner/run-service.ts) does that and reads the server's memory and open files around the load.
// Ids: `[<variant>/]<endpoint> req/s`, `… p50`, `… p95`, `… p99`, `… p99.9`, `… errors`, and
// `<suite>/[<variant>/]server [peak_rss|rss_growth|fd_growth]` (docs/formats.md).
import path from "node:path";
import type { LoadSuite } from "../../../schemas/config.gen.ts";
import { parseDuration, unique, type Argv } from "../../config-checks.ts";
import { expandArgv, type Placeholders } from "../../placeholders.ts";
import { InputError } from "../../../errors.ts";
import type { ServiceStep, SuiteBase, SuiteKind, SuiteStep } from "../suite-kind.ts";
import { PROCESS_MS } from "../round-estimate.ts";
import { loadBudgetRules } from "./load-budgets.ts";

type Method = NonNullable<LoadSuite["endpoints"][number]["method"]>;

interface LoadEndpoint {
  readonly name: string;
  readonly path: string;
  readonly method: Method;
  readonly body?: string;
  readonly headers: readonly (readonly [string, string])[];
}

interface LoadVariant {
  /** undefined: the suite has no variants (ids have no variant segment). */
  readonly name: string | undefined;
  readonly server: Argv;
  readonly ready: string;
  readonly env: Readonly<Record<string, string>>;
  /** Endpoint name → this variant's path. */
  readonly paths: ReadonlyMap<string, string>;
}

export interface LoadSuitePlan extends SuiteBase {
  readonly kind: "load";
  readonly variants: readonly LoadVariant[];
  readonly endpoints: readonly LoadEndpoint[];
  readonly durationMs: number;
  readonly warmupMs: number | undefined;
  readonly connections: number;
  readonly rate: number | undefined;
  readonly readyTimeoutMs: number;
  readonly stopGraceMs: number;
  readonly generator:
    { readonly command: Argv; readonly format: "oha" | "k6" | "vegeta" } | undefined;
}

/** The metrics each endpoint's result gives (ingest/oha and the others; docs/formats.md). */
const ENDPOINT_METRICS = ["req/s", "p50", "p95", "p99", "p99.9", "errors"] as const;

/** `rust/health`, or `health` without variants: the stem of an endpoint's ids. */
function endpointStem(variant: LoadVariant, endpoint: LoadEndpoint): string {
  return variant.name === undefined ? endpoint.name : `${variant.name}/${endpoint.name}`;
}

/** `api/server`, `api/rust/server`: the stem of a server's resource ids. */
function serverStem(suite: string, variant: LoadVariant): string {
  return variant.name === undefined ? `${suite}/server` : `${suite}/${variant.name}/server`;
}

function endpointIds(plan: LoadSuitePlan, endpoint: LoadEndpoint): string[] {
  return plan.variants.flatMap((v) =>
    ENDPOINT_METRICS.map((m) => `${endpointStem(v, endpoint)} ${m}`),
  );
}

const DEFAULTS = {
  durationMs: 5000,
  connections: 50,
  readyTimeoutMs: 30_000,
  stopGraceMs: 5000,
  ready: "/",
} as const;

function envOf(
  raw: Readonly<Record<string, string | undefined>> | undefined,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(raw ?? {}).filter((e): e is [string, string] => e[1] !== undefined),
  );
}

function plannedVariants(raw: LoadSuite, key: string, source: string): LoadVariant[] {
  const endpoints = new Set(raw.endpoints.map((e) => e.name));
  if (raw.variants === undefined) {
    if (raw.server === undefined)
      throw new InputError("a load suite needs `server:` (or a `server:` in every variant)", {
        source,
        jsonPath: key,
      });
    return [
      {
        name: undefined,
        server: raw.server,
        ready: raw.ready ?? DEFAULTS.ready,
        env: envOf(raw.env),
        paths: new Map(),
      },
    ];
  }
  unique(
    raw.variants.map((v) => v.name),
    (j) => `${key}/variants/${j}/name`,
    "variant name",
    source,
  );
  return raw.variants.map((v, j) => {
    const server = v.server ?? raw.server;
    if (server === undefined)
      throw new InputError(
        `variant ${JSON.stringify(v.name)} has no server: give it one, or give the suite a server: they share`,
        { source, jsonPath: `${key}/variants/${j}` },
      );
    for (const name of Object.keys(v.paths ?? {}))
      if (!endpoints.has(name))
        throw new InputError(
          `variant ${JSON.stringify(v.name)} sets the path of ${JSON.stringify(name)}, which is not one of the suite's endpoints`,
          { source, jsonPath: `${key}/variants/${j}/paths` },
        );
    return {
      name: v.name,
      server: server,
      ready: v.ready ?? raw.ready ?? DEFAULTS.ready,
      env: { ...envOf(raw.env), ...envOf(v.env) },
      paths: new Map(
        Object.entries(v.paths ?? {}).filter((e): e is [string, string] => e[1] !== undefined),
      ),
    };
  });
}

/**
 * oha's argv for one endpoint, its JSON written to `out`. `-w`: requests still in flight at the
 * deadline are waited for, so the end of the run does not count as failed requests.
 * `--stats-success-breakdown`: latencies of the 2xx answers apart, so a fast 503 does not make
 * a failing endpoint look quick.
 */
function ohaArgv(
  plan: LoadSuitePlan,
  endpoint: LoadEndpoint,
  url: string,
  ms: number,
  out: string,
): Argv {
  const argv: [string, ...string[]] = [
    "oha",
    "--no-tui",
    "--output-format",
    "json",
    "-o",
    out,
    "-w",
    "--stats-success-breakdown",
    "-z",
    `${ms / 1000}s`,
    "-c",
    String(plan.connections),
  ];
  if (plan.rate !== undefined) argv.push("-q", String(plan.rate), "--latency-correction");
  if (endpoint.method !== "GET") argv.push("-m", endpoint.method);
  for (const [name, value] of endpoint.headers) argv.push("-H", `${name}: ${value}`);
  if (endpoint.body !== undefined) argv.push("-d", endpoint.body);
  argv.push(url);
  return argv;
}

/** A custom generator's argv with its placeholders filled in. */
function generatorArgv(
  plan: LoadSuitePlan,
  command: Argv,
  values: { url: string; out: string; ms: number; method: Method },
): Argv {
  const fill = (text: string): string =>
    text.replace(/\{(url|out|duration|connections|rate|method)\}/g, (_, name: string) => {
      switch (name) {
        case "url":
          return values.url;
        case "out":
          return values.out;
        case "duration":
          return String(values.ms / 1000);
        case "connections":
          return String(plan.connections);
        case "rate":
          return plan.rate === undefined ? "" : String(plan.rate);
        default:
          return values.method;
      }
    });
  const [program, ...args] = command;
  return [fill(program), ...args.map(fill)];
}

function endpointSteps(
  plan: LoadSuitePlan,
  variant: LoadVariant,
  v: number,
  places: Placeholders,
  folder: string,
): SuiteStep[] {
  const steps: SuiteStep[] = [];
  for (const [e, endpoint] of plan.endpoints.entries()) {
    const url = `http://127.0.0.1:{port}${variant.paths.get(endpoint.name) ?? endpoint.path}`;
    // Files are named by position, never by a benchmark's name.
    const file = (what: string): string => path.join(folder, `${v + 1}-${e + 1}${what}.json`);
    const one = (ms: number, out: string): SuiteStep => {
      const generator = plan.generator;
      const output = {
        format: generator?.format ?? "oha",
        path: out,
        name: endpointStem(variant, endpoint),
        missing: `did not write ${path.basename(out)}`,
      } as const;
      if (generator === undefined) return { argv: ohaArgv(plan, endpoint, url, ms, out), output };
      const argv = generatorArgv(plan, expandArgv(generator.command, places), {
        url,
        out,
        ms,
        method: endpoint.method,
      });
      return { argv, output };
    };
    if (plan.warmupMs !== undefined)
      steps.push({ ...one(plan.warmupMs, file("-warmup")), unread: true });
    steps.push(one(plan.durationMs, file("")));
  }
  return steps;
}

export const loadSuite: SuiteKind<LoadSuite, LoadSuitePlan, readonly ServiceStep[]> = {
  name: "load",
  noWhere:
    "load suites are out of its scope: a server under many connections is not one run of one process (docs/where.md)",
  plan(raw, base, at) {
    const { key, source } = at;
    unique(
      raw.endpoints.map((e) => e.name),
      (j) => `${key}/endpoints/${j}/name`,
      "endpoint name",
      source,
    );
    const duration = (field: string, text: string | undefined): number | undefined =>
      text === undefined ? undefined : parseDuration(text, `${key}/${field}`, source);
    for (const [j, e] of raw.endpoints.entries())
      if (e.body !== undefined && !["POST", "PUT", "PATCH"].includes(e.method ?? "GET"))
        throw new InputError(
          `endpoint ${JSON.stringify(e.name)} has a body but method ${e.method ?? "GET"}: set method: POST, PUT or PATCH`,
          {
            source,
            jsonPath: `${key}/endpoints/${j}/body`,
          },
        );
    return {
      kind: "load",
      ...base,
      variants: plannedVariants(raw, key, source),
      endpoints: raw.endpoints.map((e) => ({
        name: e.name,
        path: e.path,
        method: e.method ?? "GET",
        ...(e.body === undefined ? {} : { body: e.body }),
        headers: Object.entries(e.headers ?? {}).filter(
          (h): h is [string, string] => h[1] !== undefined,
        ),
      })),
      durationMs: duration("duration", raw.duration) ?? DEFAULTS.durationMs,
      warmupMs: duration("warmup", raw.warmup),
      connections: raw.connections ?? DEFAULTS.connections,
      rate: raw.rate,
      readyTimeoutMs: duration("ready-timeout", raw["ready-timeout"]) ?? DEFAULTS.readyTimeoutMs,
      stopGraceMs: duration("stop-grace", raw["stop-grace"]) ?? DEFAULTS.stopGraceMs,
      generator:
        raw.generator === undefined
          ? undefined
          : { command: raw.generator.command, format: raw.generator.format },
    };
  },
  // Endpoints are kept when any of their ids matches; the server comes with them.
  filter(plan, filter) {
    const endpoints = plan.endpoints.filter((e) =>
      endpointIds(plan, e).some((id) => filter.test(id)),
    );
    return endpoints.length === 0 ? undefined : { ...plan, endpoints };
  },
  narrow(plan, open) {
    const endpoints = plan.endpoints.filter((e) =>
      endpointIds(plan, e).some((id) => open.active.has(id)),
    );
    return endpoints.length === 0 ? undefined : { plan: { ...plan, endpoints } };
  },
  // Its ids are known once it runs, but its time is its settings': each endpoint's duration.
  estimateSideMs: (plan) => plan.endpoints.length * plan.durationMs + PROCESS_MS,
  budgetRules: loadBudgetRules,
  step(plan, run): ServiceStep[] {
    const places = { target: run.paths.target, worktree: run.paths.worktree };
    const folder = path.join(run.dir, run.tag);
    const groups = plan.variants.map((variant, v) => ({
      service: {
        label: variant.name === undefined ? "server" : `server ${variant.name}`,
        idPrefix: serverStem(plan.name, variant),
        argv: expandArgv(variant.server, places),
        env: variant.env,
        readyUrl: `http://127.0.0.1:{port}${variant.ready}`,
        readyTimeoutMs: plan.readyTimeoutMs,
        stopGraceMs: plan.stopGraceMs,
      },
      steps: endpointSteps(plan, variant, v, places, folder),
    }));
    // The round's folder starts empty, so no file of an earlier run is read by mistake.
    const [first, ...rest] = groups;
    const [firstStep, ...otherSteps] = first?.steps ?? [];
    if (first === undefined || firstStep === undefined) return groups;
    return [{ ...first, steps: [{ ...firstStep, freshDir: folder }, ...otherSteps] }, ...rest];
  },
};
