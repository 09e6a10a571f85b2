// Records where a run happens (docs/runner-host.md, "What benchgate records"): CPU, frequency policy, kernel, toolchain, memory,
// runner and load, read from /proc and /sys under `root` (a fixture tree in tests). A file that
// is missing or unreadable (VMs often have no cpufreq) just leaves its field out; nothing here
// throws for the machine being unusual. Every read is capped.
import { createHash } from "node:crypto";
import { InputError } from "../errors.ts";
import type { FileReader } from "../ports/files.ts";
import type { Environment } from "../schemas/summary.gen.ts";
import { fingerprintFields } from "./fingerprint.ts";

export type RunCommand = (
  cmd: string,
  args: string[],
) => Promise<{ exitCode: number; stdout: string }>;

interface CollectEnvironmentDeps {
  readonly reader: FileReader;
  readonly run: RunCommand;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Prefix for every path read; default "/". */
  readonly root?: string;
}

/** Cap for every small /proc and /sys file. */
const MAX_READ_BYTES = 64 * 1024;
/** /proc/cpuinfo holds ~1.5 KiB per logical CPU on x86, so 64 KiB would stop at ~40 CPUs. */
const MAX_CPUINFO_BYTES = 4 * 1024 * 1024;
/** Governors are read per online CPU, up to this many. */
const MAX_GOVERNOR_CPUS = 1024;
const SHORT_TEXT = 256;

const CPU = "/sys/devices/system/cpu";

/** Control characters become spaces, runs of whitespace one space; at most 256 code points. */
function clip(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const clean = text
    .replace(/\p{Cc}+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  return Array.from(clean).slice(0, SHORT_TEXT).join("");
}

function nonEmpty(text: string | undefined): string | undefined {
  const clipped = clip(text);
  return clipped === "" ? undefined : clipped;
}

function isExpectedReadFailure(error: unknown): boolean {
  return (
    error instanceof InputError ||
    (error instanceof Error && typeof (error as NodeJS.ErrnoException).code === "string")
  );
}

/** The sha256 of the canonical fields, first 16 hex digits. */
function fingerprintOf(env: Environment): string {
  return createHash("sha256").update(fingerprintFields(env)).digest("hex").slice(0, 16);
}

/** Parses a kernel CPU list ("0-3,8,10-11") into indices, at most `limit` of them. */
export function parseCpuList(text: string, limit = MAX_GOVERNOR_CPUS): number[] | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return [];
  const cpus: number[] = [];
  for (const part of trimmed.split(",")) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (match === null) return undefined;
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    if (last < first) return undefined;
    for (let cpu = first; cpu <= last && cpus.length < limit; cpu++) cpus.push(cpu);
  }
  return cpus;
}

function parseCpuinfo(text: string): { model?: string; processors: number } {
  let model: string | undefined;
  let fallbackModel: string | undefined;
  let processors = 0;
  for (const line of text.split("\n")) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "processor") processors++;
    else if (key === "model name" && model === undefined) model = value;
    // Other architectures: ARM "Hardware", POWER "cpu", MIPS "cpu model".
    else if (
      (key === "hardware" || key === "cpu" || key === "cpu model") &&
      fallbackModel === undefined
    )
      fallbackModel = value;
  }
  const chosen = nonEmpty(model) ?? nonEmpty(fallbackModel);
  return chosen === undefined ? { processors } : { model: chosen, processors };
}

/** PRETTY_NAME (or NAME) from an os-release(5) file, with shell quoting removed. */
function parseOsRelease(text: string): string | undefined {
  const fields = new Map<string, string>();
  for (const line of text.split("\n")) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match === null) continue;
    let value = (match[2] ?? "").trim();
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.length >= 2 && value.endsWith(quote)) {
      value = value.slice(1, -1);
      if (quote === '"') value = value.replace(/\\(["\\$`])/g, "$1");
    }
    fields.set(match[1] ?? "", value);
  }
  return nonEmpty(fields.get("PRETTY_NAME")) ?? nonEmpty(fields.get("NAME"));
}

function parseMemTotal(text: string): number | undefined {
  const match = /^MemTotal:\s+(\d+)\s*kB\s*$/m.exec(text);
  if (match === null) return undefined;
  const bytes = Number(match[1]) * 1024;
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

function parseLoadAverage(text: string): [number, number, number] | undefined {
  const [a, b, c] = text.trim().split(/\s+/).slice(0, 3).map(Number);
  const ok = (v: number | undefined): v is number =>
    v !== undefined && Number.isFinite(v) && v >= 0;
  return ok(a) && ok(b) && ok(c) ? [a, b, c] : undefined;
}

function parseFlag(text: string | undefined): boolean | undefined {
  const value = text?.trim();
  return value === "1" ? true : value === "0" ? false : undefined;
}

export async function collectEnvironment(deps: CollectEnvironmentDeps): Promise<Environment> {
  const root = (deps.root ?? "/").replace(/\/+$/, "");
  const read = async (path: string, maxBytes = MAX_READ_BYTES): Promise<string | undefined> => {
    try {
      return await deps.reader.readText(`${root}${path}`, maxBytes);
    } catch (error) {
      if (isExpectedReadFailure(error)) return undefined;
      throw error;
    }
  };
  const version = async (cmd: string): Promise<string | undefined> => {
    try {
      const { exitCode, stdout } = await deps.run(cmd, ["-V"]);
      return exitCode === 0 ? nonEmpty(stdout.split("\n")[0]) : undefined;
    } catch {
      return undefined; // not installed, not runnable: the field is simply unknown
    }
  };

  const [cpuinfo, online, isolated, smt, osrelease, etcOs, meminfo, loadavg, noTurbo, boost] =
    await Promise.all([
      read("/proc/cpuinfo", MAX_CPUINFO_BYTES),
      read(`${CPU}/online`),
      read(`${CPU}/isolated`),
      read(`${CPU}/smt/control`),
      read("/proc/sys/kernel/osrelease"),
      read("/etc/os-release"),
      read("/proc/meminfo"),
      read("/proc/loadavg"),
      read(`${CPU}/intel_pstate/no_turbo`),
      read(`${CPU}/cpufreq/boost`),
    ]);
  const [rustc, cargo] = await Promise.all([version("rustc"), version("cargo")]);

  const env: Environment = {};
  if (cpuinfo !== undefined) {
    const { model, processors } = parseCpuinfo(cpuinfo);
    if (model !== undefined) env.cpu_model = model;
    if (processors >= 1 && processors <= 65536) env.logical_cpus = processors;
  }
  const onlineCpus = online === undefined ? undefined : parseCpuList(online);
  if (online !== undefined) env.online_cpus = clip(online) ?? "";
  if (env.logical_cpus === undefined && onlineCpus !== undefined && onlineCpus.length >= 1) {
    env.logical_cpus = onlineCpus.length;
  }
  // An empty `isolated` file means "no isolated CPUs", which is worth recording as "".
  if (isolated !== undefined) env.isolated_cpus = clip(isolated) ?? "";

  const governor = await readGovernor(read, onlineCpus);
  if (governor !== undefined) env.governor = governor;

  // intel_pstate's no_turbo is inverted (1 = turbo off); acpi-cpufreq/amd-pstate's boost is not.
  const turboOff = parseFlag(noTurbo);
  const boostOn = parseFlag(boost ?? (await read(`${CPU}/cpufreq/policy0/boost`)));
  if (turboOff !== undefined) env.turbo = !turboOff;
  else if (boostOn !== undefined) env.turbo = boostOn;

  const smtControl = nonEmpty(smt);
  if (smtControl !== undefined) env.smt = smtControl;
  const kernel = nonEmpty(osrelease);
  if (kernel !== undefined) env.kernel = kernel;
  // os-release(5): /etc/os-release, else /usr/lib/os-release (/etc's is often a symlink to it,
  // which the reader refuses to follow).
  const os = parseOsRelease(etcOs ?? (await read("/usr/lib/os-release")) ?? "");
  if (os !== undefined) env.os = os;
  if (rustc !== undefined) env.rustc = rustc;
  if (cargo !== undefined) env.cargo = cargo;
  const memory = meminfo === undefined ? undefined : parseMemTotal(meminfo);
  if (memory !== undefined) env.memory_bytes = memory;
  const runner = nonEmpty(deps.env["RUNNER_NAME"]);
  if (runner !== undefined) env.runner_name = runner;
  const load = loadavg === undefined ? undefined : parseLoadAverage(loadavg);
  if (load !== undefined) env.load_average = load;

  return { fingerprint: fingerprintOf(env), ...env };
}

/** The governor of every online CPU: one name, or "mixed: a, b" when they differ. */
async function readGovernor(
  read: (path: string) => Promise<string | undefined>,
  onlineCpus: readonly number[] | undefined,
): Promise<string | undefined> {
  const cpus = onlineCpus === undefined || onlineCpus.length === 0 ? [0] : onlineCpus;
  const names = await Promise.all(
    cpus.map(async (cpu) => nonEmpty(await read(`${CPU}/cpu${cpu}/cpufreq/scaling_governor`))),
  );
  const distinct = [...new Set(names.filter((n): n is string => n !== undefined))];
  if (distinct.length === 0) return undefined;
  return distinct.length === 1 ? distinct[0] : clip(`mixed: ${distinct.join(", ")}`);
}
