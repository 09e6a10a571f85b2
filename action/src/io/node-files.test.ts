import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { once } from "node:events";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { InputError, ToolError } from "../errors.ts";
import { fsError } from "./fs-errors.ts";
import { nodeDirs } from "./node-dirs.ts";
import { nodeFileReader, nodeFileWriter } from "./node-files.ts";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "benchgate-files-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("nodeFileReader", () => {
  it("keeps a leading byte-order mark in the text, for each format to judge", async () => {
    const file = path.join(dir, "bom.json");
    writeFileSync(file, Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]));
    expect(await nodeFileReader.readText(file, 100)).toBe("\uFEFF{}");
  });

  it("reads kernel files whose reported size is 0 to the end", async () => {
    const text = await nodeFileReader.readText("/proc/self/status", 1024 * 1024);
    expect(text).toMatch(/^Name:/);
    expect(text.length).toBeGreaterThan(100);
  });

  it("gives each file its own text, whatever the reads before it left in its buffer", async () => {
    const long = path.join(dir, "long.json");
    const short = path.join(dir, "short.json");
    writeFileSync(long, `[${"1,".repeat(40_000)}1]`);
    writeFileSync(short, "[2]");
    expect((await nodeFileReader.readText(long, 1024 * 1024)).length).toBe(80_003);
    expect(await nodeFileReader.readText(short, 1024)).toBe("[2]");
    // A cap below the buffer's size still refuses a file over it.
    await expect(nodeFileReader.readText(long, 1000)).rejects.toThrow(/too large/);
    expect(await nodeFileReader.readText(short, 3)).toBe("[2]");
    await expect(nodeFileReader.readText(short, 2)).rejects.toThrow(/too large/);
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

/** The one line an InputError from `promise` describes itself with. */
async function failure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InputError);
  return (error as InputError).describe();
}

describe("nodeFileWriter: outputs only to regular files", () => {
  it("refuses a FIFO, a directory and a socket, and leaves them as they were", async () => {
    const fifo = path.join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    expect(await failure(nodeFileWriter.writeText(fifo, "x"))).toBe(
      `${fifo}: is a FIFO, not a regular file; outputs are written only to regular files`,
    );
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    const sub = path.join(dir, "a-dir");
    mkdirSync(sub);
    expect(await failure(nodeFileWriter.writeText(sub, "x"))).toMatch(/: is a directory, not a/);
    // A socket stands for the other special files: no test writes to a real device, which a
    // regression would replace (as root, `-o /dev/null` used to make it a regular file).
    const socket = path.join(dir, "out.sock");
    const server = createServer().listen(socket);
    await once(server, "listening");
    try {
      expect(await failure(nodeFileWriter.writeText(socket, "x"))).toBe(
        `${socket}: is a socket, not a regular file; outputs are written only to regular files`,
      );
      expect(lstatSync(socket).isSocket()).toBe(true);
    } finally {
      server.close();
    }
  });

  it("neither follows nor replaces a symbolic link", async () => {
    const target = path.join(dir, "target.json");
    const link = path.join(dir, "out-link.json");
    writeFileSync(target, "original");
    symlinkSync(target, link);
    expect(await failure(nodeFileWriter.writeText(link, "new"))).toBe(
      `${link}: is a symbolic link; outputs are never written through or over a symbolic link`,
    );
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, "utf8")).toBe("original");
  });

  it("names the path when a part of it is a regular file, and leaves no temporary file", async () => {
    const file = path.join(dir, "plain");
    writeFileSync(file, "x");
    expect(await failure(nodeFileWriter.writeText(path.join(file, "o.json"), "x"))).toBe(
      `${file}/o.json: a part of this path is not a directory`,
    );
    expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });
});

describe("nodeDirs", () => {
  it("names the path when --out is a file or lies under one", async () => {
    const file = path.join(dir, "not-a-dir");
    writeFileSync(file, "x");
    expect(await failure(nodeDirs.ensure(file))).toBe(`${file}: exists and is not a directory`);
    expect(await failure(nodeDirs.ensure(path.join(file, "sub")))).toBe(
      `${file}/sub: a part of this path is not a directory`,
    );
    expect(await failure(nodeDirs.names(file))).toMatch(/^.*not-a-dir: /);
  });
});

describe("fsError", () => {
  it("is a tool failure when the machine lacks space, and leaves bugs alone", () => {
    const full = Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
    expect(fsError("/o.json", full)).toBeInstanceOf(ToolError);
    const bug = new TypeError("x is undefined");
    expect(fsError("/o.json", bug)).toBe(bug);
  });
});
