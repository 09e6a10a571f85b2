// The services port with real servers that try to outlive their suite (a double-forked daemon, a
// worker in a process group of its own), a server that floods its log, and a readiness probe
// that meets a redirect. Under both mechanisms this machine offers; no test asserts on a duration.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ServiceOptions } from "../ports/services.ts";
import { LOG_HEAD_BYTES, LOG_TAIL_BYTES } from "./capped-log.ts";
import { makeNodeServices, nodeServices } from "./node-services.ts";
import { ESCAPE_SCRIPT, leavesNothing, MECHANISMS } from "../../test/support/escaping-processes.ts";

const scratch = mkdtempSync(path.join(tmpdir(), "benchgate-services-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const options = (extra: Partial<ServiceOptions> = {}): ServiceOptions => ({
  cwd: scratch,
  env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin" },
  ...extra,
});

describe.each(MECHANISMS)("nodeServices with %s", (_, containment) => {
  const services = makeNodeServices(containment);

  it.each([
    ["a daemon the server double-forked before it exited", "daemon"],
    ["a worker that left the server's group with setpgid(0, 0), stdio closed", "setpgid"],
  ])("names and kills %s", async (_, mode) => {
    const port = String(await services.freePort());
    const url = `http://127.0.0.1:${port}/`;
    await leavesNothing(async (m) => {
      // The daemon's parent exits; the worker's goes on to serve (python3 -m http.server).
      const argv = ["python3", ESCAPE_SCRIPT, mode, m, ...(mode === "setpgid" ? [port] : [])];
      const service = await services.start(argv, options());
      await until(async () => {
        if (mode === "daemon") return service.exited() !== undefined;
        return (await services.probe(url, 2000)) === undefined;
      }, `the server (${mode})`);
      const stopped = await service.stop(5000);
      expect(stopped.exit.exitCode === 0 || stopped.exit.signal === "SIGTERM").toBe(true);
      expect(stopped.escaped).toEqual([{ pid: expect.any(Number) as unknown, command: "sleep" }]);
    });
  });

  it("stops a server whose processes all stay in its group without naming an escape", async () => {
    await leavesNothing(async (m) => {
      const service = await services.start(["sh", "-c", `sleep ${m} & sleep ${m}`], options());
      const stopped = await service.stop(1000);
      expect(stopped).toEqual({ exit: { exitCode: null, signal: "SIGTERM" }, escaped: [] });
    });
  });
});

describe("nodeServices", () => {
  it("caps the log of a server that writes to stderr in a loop", async () => {
    const logFile = path.join(scratch, "flood.log");
    const service = await nodeServices.start(
      ["sh", "-c", "yes benchgate-log-flood >&2"],
      options({ logFile }),
    );
    await nodeServices.sleep(1000);
    await service.stop(1000);
    const size = statSync(logFile).size;
    expect(size).toBeLessThan(LOG_HEAD_BYTES + LOG_TAIL_BYTES + 1024);
    const log = readFileSync(logFile, "utf8");
    // `yes` writes far more than the cap in a second; the note says how much went.
    expect(/\n… benchgate: (\d+) bytes of this output dropped/.exec(log)?.[1]).toMatch(/^\d+$/);
    expect(log.slice(0, 22)).toBe("benchgate-log-flood\nbe");
  });

  it("does not follow a redirect of the readiness URL, and says it is not ready", async () => {
    let elsewhere = 0;
    const target = await listening(
      createServer((_, res) => {
        elsewhere += 1;
        res.end("ok");
      }),
    );
    const redirect = await listening(
      createServer((_, res) => {
        res.writeHead(302, { location: `http://127.0.0.1:${port(target)}/health` }).end();
      }),
    );
    try {
      const why = await nodeServices.probe(`http://127.0.0.1:${port(redirect)}/health`, 2000);
      expect(why).toBe(
        `status 302, a redirect to "http://127.0.0.1:${port(target)}/health" (not followed)`,
      );
      expect(elsewhere).toBe(0);
      expect(await nodeServices.probe(`http://127.0.0.1:${port(target)}/`, 2000)).toBeUndefined();
      expect(elsewhere).toBe(1);
    } finally {
      target.close();
      redirect.close();
    }
  });
});

/** Polls `ready` every 100 ms; a bound on a hang, not a timing assertion. */
async function until(ready: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let tries = 0; !(await ready()); tries++) {
    if (tries > 600) throw new Error(`gave up waiting for ${what}`);
    await nodeServices.sleep(100);
  }
}

function listening(server: Server): Promise<Server> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const port = (server: Server): number => (server.address() as AddressInfo).port;
