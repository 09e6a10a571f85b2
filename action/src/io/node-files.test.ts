import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { nodeFileReader, nodeFileWriter } from "./node-files.ts";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "benchgate-files-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("nodeFileReader", () => {
  it("reads kernel files whose reported size is 0 to the end", async () => {
    const text = await nodeFileReader.readText("/proc/self/status", 1024 * 1024);
    expect(text).toMatch(/^Name:/);
    expect(text.length).toBeGreaterThan(100);
  });

  it("reads files larger than its first buffer, and refuses ones over the cap", async () => {
    const file = path.join(dir, "big.txt");
    writeFileSync(file, "x".repeat(300_000));
    expect((await nodeFileReader.readText(file, 300_000)).length).toBe(300_000);
    await expect(nodeFileReader.readText(file, 299_999)).rejects.toThrow(/too large/);
  });

  it("refuses symlinks and names missing files", async () => {
    const target = path.join(dir, "t.txt");
    writeFileSync(target, "ok");
    symlinkSync(target, path.join(dir, "link.txt"));
    await expect(nodeFileReader.readText(path.join(dir, "link.txt"), 100)).rejects.toThrow(
      /symbolic link/,
    );
    await expect(nodeFileReader.readText(path.join(dir, "none.txt"), 100)).rejects.toThrow(
      /not found/,
    );
  });

  it("refuses invalid UTF-8", async () => {
    const file = path.join(dir, "bin");
    writeFileSync(file, Buffer.from([0xff, 0xfe]));
    await expect(nodeFileReader.readText(file, 100)).rejects.toThrow(/UTF-8/);
  });
});

describe("nodeFileWriter", () => {
  it("replaces a file atomically and leaves no temporary file", async () => {
    const file = path.join(dir, "out.json");
    await nodeFileWriter.writeText(file, "one");
    await nodeFileWriter.writeText(file, "two");
    expect(await nodeFileReader.readText(file, 10)).toBe("two");
    await expect(nodeFileWriter.writeText(path.join(dir, "no/such/dir.json"), "x")).rejects.toThrow(
      /output directory does not exist/,
    );
  });
});
