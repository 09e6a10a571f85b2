// Checks that a change to the code's shape changed no behaviour: the CLI of this tree and of an
// earlier commit, run on the same recorded inputs, must write byte-identical report.json,
// comment.md, summaries, terminal text, errors and exit codes, but for `generated_at`.
//
//   node scripts/check-identical.ts --against <commit> [--keep DIR]
//
// The inputs are what the benches use (bench/data: the recorded A/A suites and schedule
// recordings) and the captured tool output of action/test/fixtures. From them it makes, once,
// with this tree's CLI, the summaries and variants the cases need (a few rounds, one run per
// side, base-head-base, a history of single runs, ×2 injected into some head rounds); then each
// tree runs every case into the same folder in turn, so no path differs between the two.
// The earlier commit is checked out into a temporary git worktree beside this one's
// node_modules; nothing in this checkout is changed.
import { execFileSync, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DATA = path.join(ROOT, "bench/data");
const FIXTURES = path.join(ROOT, "action/test/fixtures");

interface Case {
  readonly name: string;
  readonly args: readonly string[];
}

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

function fail(message: string): never {
  process.stderr.write(`check-identical: ${message}\n`);
  process.exit(2);
}

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(tree: string, args: readonly string[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["action/src/cli/index.ts", ...args], {
      cwd: tree,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

// ---- inputs, made once with this tree's CLI ------------------------------------------------

/** The summaries of one recorded Criterion tree: base-<r>.json and head-<r>.json. */
async function ingestTree(tree: string, criterionDir: string, out: string): Promise<void> {
  const r = await run(tree, [
    "ingest",
    "criterion",
    criterionDir,
    "--baselines",
    "base-*,head-*",
    "--out-dir",
    out,
  ]);
  if (r.code !== 0) fail(`ingest of ${criterionDir} failed: ${r.stderr}`);
}

function roundsIn(dir: string, side: string): number[] {
  return readdirSync(dir)
    .map((f) => new RegExp(`^${side}-(\\d+)\\.json$`).exec(f)?.[1])
    .filter((r): r is string => r !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

type Json = Record<string, unknown>;

function readJson(file: string): Json {
  return JSON.parse(readFileSync(file, "utf8")) as Json;
}

/** A summary with every sample and estimate of the chosen benchmarks multiplied by `factor`. */
function scaled(summary: Json, pick: (id: string, index: number) => number): Json {
  const benchmarks = (summary.benchmarks as Json[]).map((b, i) => {
    const factor = pick(String(b.id), i);
    if (factor === 1) return b;
    const estimates = Object.fromEntries(
      Object.entries((b.estimates ?? {}) as Record<string, Json>).map(([k, e]) => [
        k,
        Object.fromEntries(
          Object.entries(e).map(([f, v]) => [
            f,
            typeof v === "number" && f !== "level" ? v * factor : v,
          ]),
        ),
      ]),
    );
    const samples = (b.samples as number[] | undefined)?.map((s) => s * factor);
    return { ...b, estimates, ...(samples === undefined ? {} : { samples }) };
  });
  return { ...summary, benchmarks };
}

/** A summary as another side and round (--aba reads two base runs as rounds 1 and 2). */
function relabel(summary: Json, side: string, round: number): Json {
  return { ...summary, side, round };
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** Runs of unchanged code as a default branch's history: one single-run record each. */
function history(runs: readonly Json[]): Json {
  const first = (runs[0]?.benchmarks ?? []) as Json[];
  const series = first.map((b) => ({
    suite: b.suite,
    id: b.id,
    unit: b.unit,
    direction: b.direction,
    origin: "benchgate",
  }));
  const index = new Map(series.map((s, i) => [`${String(s.suite)}\u0000${String(s.id)}`, i]));
  return {
    schema_version: 1,
    series,
    commits: runs.map((run, i) => ({
      sha: (i + 1).toString(16).padStart(40, "0"),
      date: `2026-01-${String(1 + (i % 28)).padStart(2, "0")}T00:00:00Z`,
      message: `default-branch commit ${i + 1}`,
      author: "check-identical",
      recorded_at: `2026-01-${String(1 + (i % 28)).padStart(2, "0")}T01:00:00Z`,
      rounds: 1,
      fingerprint: FINGERPRINT,
      results: (run.benchmarks as Json[]).flatMap((b) => {
        const at = index.get(`${String(b.suite)}\u0000${String(b.id)}`);
        const samples = (b.samples as number[] | undefined) ?? [];
        return at === undefined || samples.length === 0
          ? []
          : [[at, median(samples), null, null, null]];
      }),
    })),
  };
}

/** The one runner every history record and one-run summary claims to come from. */
const FINGERPRINT = "0123456789abcdef";

/** `summary` as measured on that runner. */
function onRunner(summary: Json): Json {
  return { ...summary, environment: { fingerprint: FINGERPRINT } };
}

const CONFIG = `# budgets, a smells block and a statistics setting, to run those parts too
version: 1
statistics:
  fail-threshold: 4%
budgets:
  - benchmark: "*/encode_bs58"
    p95: "< 2us"
  - benchmark: "*bytes*"
    max-regression: 25%
smells:
  fail-on: [flat-scaling]
`;

async function makeInputs(tree: string, dir: string): Promise<Case[]> {
  const cases: Case[] = [];
  const write = (file: string, value: Json | string): string => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
    return file;
  };
  const config = write(path.join(dir, "benchgate.yml"), CONFIG);
  const critcmp = path.join(ROOT, "action/src/render/__fixtures__/demo-critcmp.txt");
  /** `compare` of these summaries, writing the case's report.json and comment.md. */
  const compare = (
    name: string,
    base: readonly string[],
    head: readonly string[],
    extra: readonly string[] = [],
  ): Case => ({
    name,
    args: [
      "compare",
      ...extra,
      "--base",
      ...base,
      "--head",
      ...head,
      "--json",
      `OUT/${name}/report.json`,
      "--markdown",
      `OUT/${name}/comment.md`,
    ],
  });
  const aa = readdirSync(DATA).filter((d) => d.startsWith("aa-"));
  for (const suite of aa) {
    const criterion = path.join(DATA, suite, "criterion");
    const summaries = path.join(dir, suite);
    await ingestTree(tree, criterion, summaries);
    const base = roundsIn(summaries, "base");
    const head = roundsIn(summaries, "head");
    const at = (side: string, rounds: readonly number[]) =>
      rounds.map((r) => path.join(summaries, `${side}-${r}.json`));
    // ×2 on every fourth benchmark, ×1.04 on the ones after them: confirmed and borderline.
    const slowed = head.map((r) =>
      write(
        path.join(dir, `${suite}-injected`, `head-${r}.json`),
        scaled(readJson(path.join(summaries, `head-${r}.json`)), (_, i) =>
          i % 4 === 0 ? 2 : i % 4 === 1 ? 1.04 : 1,
        ),
      ),
    );
    // base, head, base in one job: base rounds 1 and 2 around head round 1.
    const aba = [1, 2].map((r) =>
      write(
        path.join(dir, `${suite}-aba`, `base-${r}.json`),
        relabel(readJson(path.join(summaries, `base-${base[r - 1]}.json`)), "base", r),
      ),
    );
    // One run per side against a history of the other rounds (both sides', in run order).
    const earlier = base
      .slice(1)
      .flatMap((r) => [
        readJson(path.join(summaries, `base-${r}.json`)),
        readJson(path.join(summaries, `head-${r}.json`)),
      ]);
    const hist = write(path.join(dir, `${suite}-history.json`), history(earlier));
    const single = (label: string, file: string): string =>
      write(path.join(dir, `${suite}-single`, `${label}.json`), onRunner(readJson(file)));
    const oneBase = [single("base-1", path.join(summaries, "base-1.json"))];
    cases.push(
      compare(`${suite}/all`, at("base", base), at("head", head)),
      {
        name: `${suite}/tree`,
        args: [
          "compare",
          "--criterion",
          criterion,
          "--json",
          `OUT/${suite}/tree/report.json`,
          "--markdown",
          `OUT/${suite}/tree/comment.md`,
        ],
      },
      compare(`${suite}/three`, at("base", base.slice(0, 3)), at("head", head.slice(0, 3))),
      compare(`${suite}/config`, at("base", base), at("head", head), [
        "--config",
        config,
        "--critcmp",
        critcmp,
      ]),
      compare(`${suite}/one`, at("base", [1]), at("head", [1])),
      compare(`${suite}/injected`, at("base", base), slowed),
      compare(`${suite}/aba`, aba, at("head", [1]), ["--aba"]),
      compare(
        `${suite}/history`,
        oneBase,
        [single("head-1", path.join(summaries, "head-1.json"))],
        ["--history", hist],
      ),
      compare(
        `${suite}/history-injected`,
        oneBase,
        [single("head-1-injected", slowed[0] as string)],
        ["--history", hist],
      ),
    );
  }
  for (const suite of readdirSync(DATA).filter((d) => d.startsWith("schedules-"))) {
    for (const schedule of ["pairs", "suite"]) {
      const folder = path.join(DATA, suite, schedule);
      if (!existsSync(folder)) continue;
      const files = readdirSync(folder).filter((f) => f.endsWith(".json"));
      const side = (s: string) =>
        files
          .filter((f) => f.startsWith(`${s}-`))
          .sort((a, b) => a.localeCompare(b, "en", { numeric: true }))
          .map((f) => path.join(folder, f));
      if (side("base").length === 0) continue;
      cases.push(compare(`${suite}/${schedule}`, side("base"), side("head")));
    }
  }
  const help = [
    "ingest",
    "validate",
    "compare",
    "run",
    "merge",
    "golden",
    "init",
    "runner-hook",
    "history",
    "baseline",
  ];
  return [
    ...cases,
    ...ingestCases(),
    { name: "help/benchgate", args: ["--help"] },
    ...help.map((command) => ({ name: `help/${command}`, args: [command, "--help"] })),
  ];
}

/** Every format kind on every captured file: the summaries it writes and the errors it gives. */
function ingestCases(): Case[] {
  const kinds = [
    "criterion",
    "hyperfine",
    "critcmp",
    "custom",
    "gab",
    "gungraun",
    "cachegrind",
    "oha",
    "k6",
    "vegeta",
    "divan",
  ];
  const files = [
    ...[
      "load",
      "hyperfine-1.15",
      "critcmp-0.1.8",
      "cachegrind-3.19",
      "divan/0.1.21",
      "gab-data-js",
      "ingest",
    ].flatMap((d) =>
      filesUnder(path.join(FIXTURES, d)).filter((f) => !/README|VERSION|\.(sh|py|md)$/.test(f)),
    ),
  ];
  const trees = [
    path.join(FIXTURES, "criterion-0.5.1"),
    path.join(FIXTURES, "gungraun-0.20/run-1"),
    path.join(FIXTURES, "iai-callgrind-0.16/run-1"),
  ];
  const cases: Case[] = [];
  for (const kind of kinds) {
    for (const [i, file] of [...files, ...trees].entries()) {
      const name = `ingest/${kind}/${i}-${path.basename(file)}`;
      const extra = kind === "criterion" ? ["--baseline", "base"] : [];
      cases.push({
        name,
        args: ["ingest", kind, file, ...extra, "-o", `OUT/${name}/summary.json`],
      });
    }
  }
  return cases;
}

// ---- running and comparing -----------------------------------------------------------------

/**
 * Runs every case of `cases` with the CLI of `tree`, in one Node process (a process per case
 * costs a second of start-up each): the driver imports that tree's CLI and machine and gives
 * `main` the argv, catching what it writes.
 */
async function runAll(tree: string, cases: readonly Case[], out: string, into: string) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const list = path.join(path.dirname(out), "cases.json");
  writeFileSync(list, JSON.stringify(cases));
  const child = spawn(
    process.execPath,
    [fileURLToPath(import.meta.url), "--driver", tree, list, out],
    {
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    },
  );
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  if (code !== 0) fail(`the driver for ${tree} exited ${code}`);
  renameSync(out, into);
}

async function drive(tree: string, list: string, out: string): Promise<void> {
  const { main } = (await import(path.join(tree, "action/src/cli/main.ts"))) as {
    main: (argv: readonly string[], deps: unknown) => Promise<number>;
  };
  const { nodeMachine } = (await import(path.join(tree, "action/src/io/node-machine.ts"))) as {
    nodeMachine: (options: { err: (text: string) => void }) => Record<string, unknown>;
  };
  const cases = JSON.parse(readFileSync(list, "utf8")) as Case[];
  for (const [i, c] of cases.entries()) {
    const args = c.args.map((a) => a.replace(/^OUT\//, `${out}/`));
    for (const a of args)
      if (a.startsWith(`${out}/`)) mkdirSync(path.dirname(a), { recursive: true });
    let stdout = "";
    let stderr = "";
    const machine = {
      ...nodeMachine({ err: (text) => (stderr += text) }),
      out: (text: string) => (stdout += text),
    };
    const code = await main(args, machine);
    const dir = path.join(out, c.name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "exit.txt"), `${code}\n`);
    writeFileSync(path.join(dir, "stdout.txt"), stdout);
    writeFileSync(path.join(dir, "stderr.txt"), stderr);
    if ((i + 1) % 100 === 0 || i + 1 === cases.length)
      process.stderr.write(`  ${path.basename(tree)}: ${i + 1}/${cases.length} cases\n`);
  }
}

/** `generated_at` is the one field allowed to differ. */
function normalised(text: string): string {
  return text
    .replace(/"generated_at":\s*"[^"]*"/g, '"generated_at":"…"')
    .replace(/(<sub>benchgate [^<·]+ · )\d{4}-\d\d-\d\dT[\d:.]+(<!-- -->)?[\d:.]+Z/g, "$1…");
}

function differences(a: string, b: string): string[] {
  const left = filesUnder(a).map((f) => path.relative(a, f));
  const right = new Set(filesUnder(b).map((f) => path.relative(b, f)));
  const diffs: string[] = [];
  for (const f of left) {
    if (!right.delete(f)) diffs.push(`only before: ${f}`);
    else if (
      normalised(readFileSync(path.join(a, f), "utf8")) !==
      normalised(readFileSync(path.join(b, f), "utf8"))
    )
      diffs.push(`differs: ${f}`);
  }
  for (const f of right) diffs.push(`only after: ${f}`);
  return diffs;
}

if (process.argv[2] === "--driver") {
  const [tree, list, out] = process.argv.slice(3) as [string, string, string];
  await drive(tree, list, out);
  process.exit(0);
}

const against =
  option("against") ??
  fail("usage: node scripts/check-identical.ts --against <commit> [--keep DIR]");
const keep = option("keep");
const sha = execFileSync("git", ["rev-parse", "--verify", `${against}^{commit}`], {
  cwd: ROOT,
  encoding: "utf8",
}).trim();
const work = keep ?? mkdtempSync(path.join(tmpdir(), "benchgate-identical-"));
mkdirSync(work, { recursive: true });
const before = path.join(work, "tree-before");
rmSync(before, { recursive: true, force: true });
execFileSync("git", ["worktree", "prune"], { cwd: ROOT });
execFileSync("git", ["worktree", "add", "--detach", before, sha], { cwd: ROOT, stdio: "ignore" });
try {
  symlinkSync(path.join(ROOT, "node_modules"), path.join(before, "node_modules"));
  // The generated files (schemas/*.gen.ts) are committed; nothing to build in either tree.
  const inputs = path.join(work, "inputs");
  rmSync(inputs, { recursive: true, force: true });
  process.stderr.write(`check-identical: making the inputs in ${inputs}\n`);
  const cases = await makeInputs(ROOT, inputs);
  process.stderr.write(
    `check-identical: ${cases.length} cases, ${sha.slice(0, 8)} and this tree\n`,
  );
  const scratch = path.join(work, "out");
  await runAll(before, cases, scratch, path.join(work, "before"));
  await runAll(ROOT, cases, scratch, path.join(work, "after"));
  const diffs = differences(path.join(work, "before"), path.join(work, "after"));
  const files = filesUnder(path.join(work, "after")).length;
  const reports = filesUnder(path.join(work, "after")).filter((f) =>
    /report\.json$|comment\.md$|summary\.json$/.test(f),
  ).length;
  if (diffs.length > 0) {
    process.stdout.write(`${diffs.join("\n")}\n`);
    process.stdout.write(
      `check-identical: ${diffs.length} of ${files} files differ (outputs in ${work})\n`,
    );
    process.exitCode = 1;
  } else {
    process.stdout.write(
      `check-identical: ${cases.length} cases, ${files} files (${reports} reports, comments and summaries) identical to ${sha.slice(0, 8)} but generated_at\n`,
    );
  }
} finally {
  execFileSync("git", ["worktree", "remove", "--force", before], { cwd: ROOT });
  if (keep === undefined) rmSync(work, { recursive: true, force: true });
}
