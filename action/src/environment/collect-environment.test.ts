import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { InputError } from "../errors.ts";
import type { FileReader } from "../ports/files.ts";
import type { Environment } from "../schemas/summary.gen.ts";
import { validateSummary } from "../schemas/validate-document.ts";
import { collectEnvironment, parseCpuList, type RunCommand } from "./collect-environment.ts";
import { fingerprintFields } from "./fingerprint.ts";
import { nodeFileReader } from "../io/node-files.ts";
import { pinningWarnings } from "../core/environment.ts";

const FIXTURES = fileURLToPath(new URL("../../test/fixtures/environment/", import.meta.url));
const CPU = "/sys/devices/system/cpu";

const toolchain: RunCommand = (cmd) =>
  Promise.resolve({ exitCode: 0, stdout: `${cmd} 1.82.0 (f6e511eec 2024-10-15)\n` });

/** The fixture tree, with some files replaced (text) or removed (undefined). */
function overlay(root: string, files: Record<string, string | undefined>): FileReader {
  return {
    ...nodeFileReader,
    readText(path, maxBytes) {
      const relative = path.slice(root.length);
      if (relative in files) {
        const text = files[relative];
        if (text === undefined) throw new InputError("file not found", { source: path });
        return Promise.resolve(text);
      }
      return nodeFileReader.readText(path, maxBytes);
    },
  };
}

function collect(
  fixture: string,
  options: { files?: Record<string, string | undefined>; run?: RunCommand; runner?: string } = {},
): Promise<Environment> {
  const root = `${FIXTURES}${fixture}`;
  return collectEnvironment({
    reader: overlay(root, options.files ?? {}),
    run: options.run ?? toolchain,
    env: { RUNNER_NAME: options.runner ?? "bench-1", PATH: "/usr/bin" },
    root,
  });
}

function expectValid(environment: Environment): void {
  const summary = { schema_version: 1, side: "base", round: 1, environment, benchmarks: [] };
  expect(() => validateSummary(summary, "environment")).not.toThrow();
}

describe("collectEnvironment", () => {
  it("reads a pinned bare-metal box", async () => {
    const env = await collect("bare-metal");
    expect(env).toEqual({
      fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/) as unknown,
      cpu_model: "Intel(R) Xeon(R) E-2278G CPU @ 3.40GHz",
      logical_cpus: 4,
      online_cpus: "0-3",
      isolated_cpus: "2-3",
      governor: "performance",
      turbo: false,
      smt: "off",
      kernel: "6.8.0-45-generic",
      os: "Ubuntu 24.04.1 LTS",
      rustc: "rustc 1.82.0 (f6e511eec 2024-10-15)",
      cargo: "cargo 1.82.0 (f6e511eec 2024-10-15)",
      memory_bytes: 65707808 * 1024,
      runner_name: "bench-1",
      load_average: [0.02, 0.05, 0.01],
    });
    expectValid(env);
    expect(pinningWarnings(env)).toEqual([]);
  });

  it("reads a cloud VM without cpufreq, leaving governor and turbo out", async () => {
    const env = await collect("cloud-vm");
    expect(env).toMatchObject({
      cpu_model: "AMD EPYC 7B13",
      logical_cpus: 2,
      online_cpus: "0-1",
      isolated_cpus: "",
      smt: "on",
      kernel: "6.1.0-25-cloud-amd64",
      os: "Debian GNU/Linux 12 (bookworm)",
      memory_bytes: 8141100 * 1024,
      load_average: [2.5, 1.8, 1.2],
    });
    expect(env).not.toHaveProperty("governor");
    expect(env).not.toHaveProperty("turbo");
    expectValid(env);
    expect(pinningWarnings(env).map((w) => w.split(":")[0])).toEqual([
      "SMT (hyper-threading) is on",
      "load average 2.50 at start on 2 CPUs",
    ]);
  });

  it("leaves out what is missing or failing: no os-release, no /sys, rustc failing, cargo absent", async () => {
    const run: RunCommand = (cmd) =>
      cmd === "rustc"
        ? Promise.resolve({ exitCode: 1, stdout: "" })
        : Promise.reject(Object.assign(new Error("spawn cargo ENOENT"), { code: "ENOENT" }));
    const env = await collectEnvironment({
      reader: nodeFileReader,
      run,
      env: {},
      root: `${FIXTURES}minimal`,
    });
    expect(env).toEqual({
      fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/) as unknown,
      cpu_model: "Example Board",
      logical_cpus: 1,
      kernel: "5.15.0-1-arm64",
      memory_bytes: 2000000 * 1024,
    });
    expectValid(env);
    expect(pinningWarnings(env)).toEqual([]);
  });

  it("reads turbo from cpufreq boost, and reports mixed governors", async () => {
    const env = await collect("bare-metal", {
      files: {
        [`${CPU}/intel_pstate/no_turbo`]: undefined,
        [`${CPU}/cpufreq/boost`]: "1\n",
        [`${CPU}/cpu2/cpufreq/scaling_governor`]: "powersave\n",
      },
    });
    expect(env.turbo).toBe(true);
    expect(env.governor).toBe("mixed: performance, powersave");
    expect(pinningWarnings(env).map((w) => w.split(": the clock")[0])).toEqual([
      'CPU governor is "mixed: performance, powersave", not "performance"',
      "turbo/boost is on",
    ]);
  });

  it("clips long and control-character values so they fit the schema", async () => {
    const env = await collect("cloud-vm", {
      files: {
        "/proc/cpuinfo": `processor\t: 0\nmodel name\t: ${"x".repeat(1000)}\u0007\n`,
        "/etc/os-release": `PRETTY_NAME="a\\"b\u0001c"\n`,
      },
      run: () => Promise.resolve({ exitCode: 0, stdout: `rustc ${"9".repeat(400)}\n` }),
    });
    expect(env.cpu_model).toHaveLength(256);
    expect(env.os).toBe('a"b c');
    expect(Array.from(env.rustc ?? "")).toHaveLength(256);
    expectValid(env);
  });

  it("does not swallow bugs in the reader", async () => {
    const reader: FileReader = {
      ...nodeFileReader,
      readText: () => Promise.reject(new TypeError("bug")),
    };
    await expect(
      collectEnvironment({ reader, run: toolchain, env: {}, root: `${FIXTURES}minimal` }),
    ).rejects.toThrow(TypeError);
  });
});

describe("fingerprint", () => {
  it("is stable across runs and ignores load average", async () => {
    const first = await collect("bare-metal");
    const second = await collect("bare-metal");
    const busy = await collect("bare-metal", {
      files: { "/proc/loadavg": "7.5 3.2 1.1 9/400 1\n" },
    });
    expect(second.fingerprint).toBe(first.fingerprint);
    expect(busy.load_average).toEqual([7.5, 3.2, 1.1]);
    expect(busy.fingerprint).toBe(first.fingerprint);
  });

  it("changes when the governor, the CPU model or the runner changes", async () => {
    const base = await collect("bare-metal");
    const governors = Object.fromEntries(
      [0, 1, 2, 3].map((cpu) => [`${CPU}/cpu${cpu}/cpufreq/scaling_governor`, "powersave\n"]),
    );
    const powersave = await collect("bare-metal", { files: governors });
    const otherCpu = await collect("bare-metal", {
      files: { "/proc/cpuinfo": "processor\t: 0\nmodel name\t: AMD EPYC 9654\n" },
    });
    const otherRunner = await collect("bare-metal", { runner: "bench-2" });
    expect(powersave.governor).toBe("powersave");
    const prints = [base, powersave, otherCpu, otherRunner].map((e) => e.fingerprint);
    expect(new Set(prints).size).toBe(4);
  });

  it("rounds memory to GiB so a few kB of boot-time drift does not change it", () => {
    const env: Environment = { cpu_model: "x", memory_bytes: 16 * 1024 ** 3 };
    expect(fingerprintFields({ ...env, memory_bytes: 16 * 1024 ** 3 - 50_000 })).toBe(
      fingerprintFields(env),
    );
    expect(fingerprintFields(env)).toContain('["memory_gib",16]');
  });
});

describe("parseCpuList", () => {
  it("expands ranges and rejects nonsense", () => {
    expect(parseCpuList("0-2,5,7-8\n")).toEqual([0, 1, 2, 5, 7, 8]);
    expect(parseCpuList("")).toEqual([]);
    expect(parseCpuList("3-1")).toBeUndefined();
    expect(parseCpuList("a")).toBeUndefined();
    expect(parseCpuList("0-100000", 4)).toEqual([0, 1, 2, 3]);
  });
});

describe("the real machine", () => {
  it("collects an environment that validates", async () => {
    const run: RunCommand = (cmd, args) =>
      new Promise((resolve) => {
        execFile(cmd, args, { timeout: 10_000, maxBuffer: 64 * 1024 }, (error, stdout) => {
          const code = error === null ? 0 : typeof error.code === "number" ? error.code : 127;
          resolve({ exitCode: code, stdout });
        });
      });
    const env = await collectEnvironment({ reader: nodeFileReader, run, env: process.env });
    console.log(JSON.stringify(env));
    expectValid(env);
    expect(env.kernel).toBeDefined();
    expect(env.logical_cpus).toBeGreaterThanOrEqual(1);
  });
});
