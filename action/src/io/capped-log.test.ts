// The log cap with small caps, so every byte of the file can be checked: the head is shared by
// every writer of a file (and counts what the file already held), each writer keeps its own tail,
// and the note says exactly how many of its bytes were dropped.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openCappedLog } from "./capped-log.ts";

const scratch = mkdtempSync(path.join(tmpdir(), "benchgate-log-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const CAPS = { head: 10, tail: 4 };
const note = (dropped: number): string =>
  `\n… benchgate: ${dropped} bytes of this output dropped (a log keeps its first 10 bytes and each process's last 4)\n`;

describe("openCappedLog", () => {
  it("writes everything while under the head cap, with no note", async () => {
    const file = path.join(scratch, "small.log");
    const log = openCappedLog(file, CAPS);
    log.write(Buffer.from("hello"));
    log.write(Buffer.from("!"));
    await log.end();
    expect(readFileSync(file, "utf8")).toBe("hello!");
  });

  it("keeps the head, then the note and the last bytes, across chunks of any size", async () => {
    const file = path.join(scratch, "flood.log");
    const log = openCappedLog(file, CAPS);
    for (const chunk of ["0123456", "789abc", "d", "efghijkl", "mn"]) log.write(Buffer.from(chunk));
    await log.end();
    // 24 bytes: the first 10, then 10 dropped, then the last 4.
    expect(readFileSync(file, "utf8")).toBe(`0123456789${note(10)}klmn`);
  });

  it("shares the head between the writers of one file and counts what the file held", async () => {
    const file = path.join(scratch, "shared.log");
    writeFileSync(file, "old:");
    const server = openCappedLog(file, CAPS);
    const load = openCappedLog(file, CAPS);
    server.write(Buffer.from("SSS"));
    load.write(Buffer.from("LLLLLL"));
    server.write(Buffer.from("sssss"));
    await load.end();
    await server.end();
    // 4 bytes held + 3 + 3 of "LLLLLL" fill the head; "LLL" is load's tail (nothing dropped),
    // "sssss" goes to server's tail, which keeps its last 4. The two writers' bytes may land in
    // either order, so the middle is compared sorted.
    const text = readFileSync(file, "utf8");
    const end = `${note(1)}ssss`;
    expect(text.startsWith("old:") && text.endsWith(end), text).toBe(true);
    expect([...text.slice(4, -end.length)].sort().join("")).toBe("LLLLLLSSS");
  });
});
