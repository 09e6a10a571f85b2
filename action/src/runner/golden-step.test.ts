import { describe, expect, it } from "vitest";
import { InputError } from "../errors.ts";
import type { FileWriter } from "../ports/files.ts";
import { writeGolden } from "./golden-step.ts";

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
