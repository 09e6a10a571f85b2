import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { terminalOn, type Terminal, type TerminalStream } from "./node-terminal.ts";

/** A stream that records what it was given, and fails on demand like a Node stream would. */
class FakeStream extends EventEmitter implements TerminalStream {
  text = "";
  throwing: Error | undefined;
  write(text: string): boolean {
    if (this.throwing !== undefined) throw this.throwing;
    this.text += text;
    return true;
  }
  fail(code: string): void {
    this.emit("error", Object.assign(new Error(`${code}: it failed, write`), { code }));
  }
}

function setUp(): {
  terminal: Terminal;
  out: FakeStream;
  err: FakeStream;
  failures: () => number;
} {
  const out = new FakeStream();
  const err = new FakeStream();
  let failures = 0;
  const terminal = terminalOn(out, err, () => (failures += 1));
  return { terminal, out, err, failures: () => failures };
}

describe("terminalOn", () => {
  it("a closed reader (EPIPE) silences standard output and keeps the command's exit code", () => {
    const t = setUp();
    t.out.fail("EPIPE");
    expect(t.failures()).toBe(0);
    expect(() => t.terminal.out("more\n")).not.toThrow();
    expect(t.out.text).toBe("");
    expect(t.err.text).toBe("");
    expect(t.terminal.exitCode(1)).toBe(1);
    expect(t.terminal.exitCode(0)).toBe(0);
  });

  it("another failure of standard output is one line on standard error and exit code 3", () => {
    const t = setUp();
    t.out.fail("ENOSPC");
    t.out.fail("ENOSPC");
    expect(t.err.text).toBe(
      "benchgate: error: cannot write to standard output (ENOSPC: it failed, write)\n",
    );
    expect(t.failures()).toBe(1);
    expect(t.terminal.exitCode(0)).toBe(3);
    expect(t.terminal.exitCode(1)).toBe(3);
  });

  it("a failing standard error gives exit code 3 and writes nothing to standard output", () => {
    const t = setUp();
    t.err.fail("EIO");
    t.terminal.err("benchgate: warning: x\n");
    expect(t.out.text).toBe("");
    expect(t.terminal.exitCode(2)).toBe(3);
  });

  it("a write that throws is handled like an 'error' event", () => {
    const t = setUp();
    t.out.throwing = Object.assign(new Error("EBADF: bad file descriptor"), { code: "EBADF" });
    expect(() => t.terminal.out("x\n")).not.toThrow();
    expect(t.err.text).toMatch(/^benchgate: error: cannot write to standard output \(EBADF/);
    expect(t.terminal.exitCode(0)).toBe(3);
  });

  it("defuses workflow commands on both streams, each with its own line state", () => {
    const t = setUp();
    t.terminal.out("  :");
    t.terminal.err("::add-mask::e\n");
    t.terminal.out(":add-mask::o\n");
    expect(t.out.text).toBe("  :\\u003aadd-mask::o\n");
    expect(t.err.text).toBe(":\\u003aadd-mask::e\n");
  });
});
