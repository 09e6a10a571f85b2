import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { listenForInterrupts, nodeMachine, withoutCredentials } from "./node-machine.ts";

describe("withoutCredentials", () => {
  it("keeps PATH and the GitHub context, drops inputs and runner tokens", () => {
    const kept = withoutCredentials({
      PATH: "/usr/bin",
      HOME: "/root",
      GITHUB_SHA: "abc",
      GITHUB_REPOSITORY: "o/r",
      "INPUT_GITHUB-TOKEN": "ghs_secret",
      INPUT_MODE: "gate",
      ACTIONS_RUNTIME_TOKEN: "x",
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: "y",
      ACTIONS_ID_TOKEN_REQUEST_URL: "z",
      ACTIONS_CACHE_URL: "u",
      ACTIONS_RESULTS_URL: "r",
      GITHUB_TOKEN: "t",
      GH_TOKEN: "g",
    });
    expect(kept).toEqual({
      PATH: "/usr/bin",
      HOME: "/root",
      GITHUB_SHA: "abc",
      GITHUB_REPOSITORY: "o/r",
    });
  });
});

describe("listenForInterrupts", () => {
  it("says the same neutral thing for every command and aborts the signal", () => {
    const source = new EventEmitter();
    const said: string[] = [];
    const interrupts = listenForInterrupts((text) => said.push(text), source);
    source.emit("SIGINT", "SIGINT");
    expect(interrupts.signal.aborted).toBe(true);
    expect(said).toEqual(["\nbenchgate: SIGINT: stopping and cleaning up (again to force)\n"]);
    interrupts.dispose();
    expect(source.listenerCount("SIGINT") + source.listenerCount("SIGTERM")).toBe(0);
  });
});

describe("nodeMachine", () => {
  it("defuses workflow commands in text given to a custom err (the action's log)", () => {
    const said: string[] = [];
    nodeMachine({ err: (text) => said.push(text) }).err("::add-mask::secret\n");
    expect(said).toEqual([":\\u003aadd-mask::secret\n"]);
  });
});
