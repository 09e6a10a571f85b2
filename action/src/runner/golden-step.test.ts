import { describe, expect, it } from "vitest";
import { InputError, ToolError } from "../errors.ts";
import type { GoldenPlan } from "../config/run-config.ts";
import type { FileReader, FileWriter } from "../ports/files.ts";
import type { ProcessPort } from "../ports/process.ts";
import { produceGoldenOutputs, writeGolden } from "./golden-step.ts";

describe("writeGolden: a plan's paths never leave the tree (defence in depth)", () => {
  it("refuses checksums or outputs outside the root before writing anything", async () => {
    // validateConfig and the resolver refuse such a config; a plan made any other way must still
    // not make `golden update` write outside the checkout.
    const written: string[] = [];
    const writer: FileWriter = {
      writeText: (path) => Promise.resolve(void written.push(path)),
      writeBytes: (path) => Promise.resolve(void written.push(path)),
    };
    const deps = { writer, sha256: () => "0".repeat(64) };
    const outputs = [{ name: "a", stdout: "", exitCode: 0 }];
    for (const plan of [
      { checksums: "../../etc/x", commands: [] },
      { checksums: "sums", outputs: "../outside", commands: [] },
    ])
      await expect(writeGolden(plan, "/repo", outputs, deps)).rejects.toThrow(InputError);
    expect(written).toEqual([]);
    expect(await writeGolden({ checksums: "sums", commands: [] }, "/repo", outputs, deps)).toEqual([
      "sums",
    ]);
  });
});

describe("produceGoldenOutputs", () => {
  it("turns a golden command that left a process running into a tool failure naming it", async () => {
    // What the process port reports when a command's daemon outlived it (io/node-process.ts).
    const proc: ProcessPort = () =>
      Promise.resolve({
        exitCode: 0,
        signal: null,
        timedOut: false,
        aborted: false,
        stdout: "usage: demo\n",
        stderrTail: "",
        durationMs: 1,
        escaped: [{ pid: 4242, command: "sleep" }],
      });
    const plan: GoldenPlan = {
      checksums: "sums",
      commands: [{ name: "help", command: ["{target}/demo", "--help"], timeoutMs: 1000 }],
    };
    const deps = { proc, reader: {} as FileReader, sha256: () => "0".repeat(64), env: {} };
    const run = produceGoldenOutputs(plan, "/repo", { target: "/t", worktree: "/repo" }, deps);
    await expect(run).rejects.toThrow(ToolError);
    await expect(run).rejects.toThrow(
      /^golden command \/t\/demo --help left a process running after it ended .*: pid 4242 \(sleep\)$/,
    );
  });
});
