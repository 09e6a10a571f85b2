// The rules scripts/check-architecture.ts enforces on action/src, on synthetic import graphs:
// each rule catches its violation, and a clean layered graph passes.
import { describe, expect, it } from "vitest";
import {
  checkArchitecture,
  describeViolation,
  type ArchitectureRules,
  type ImportGraph,
} from "../../scripts/architecture-rules.ts";

const RULES: ArchitectureRules = {
  ranks: new Map([
    ["errors.ts", 0],
    ["core", 1],
    ["render", 1],
    ["gate", 2],
    ["cli", 3],
    ["action", 3],
  ]),
  apart: [["cli", "action"]],
};

const graph = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges));
const lines = (g: ImportGraph): string[] =>
  checkArchitecture(g, RULES).map((v) => describeViolation(v, (f) => `action/src/${f}`));

const CLEAN = {
  "errors.ts": [],
  "core/stats.ts": ["errors.ts"],
  "core/compare.ts": ["core/stats.ts", "errors.ts"],
  "render/comment.ts": ["errors.ts"],
  "gate/decide.ts": ["core/compare.ts", "render/comment.ts"],
  "cli/main.ts": ["gate/decide.ts", "core/stats.ts"],
  "action/main.ts": ["gate/decide.ts"],
};

describe("checkArchitecture", () => {
  it("passes a layered graph without cycles", () => {
    expect(checkArchitecture(graph(CLEAN), RULES)).toEqual([]);
  });

  it("finds a cycle between files and prints its path", () => {
    const g = graph({
      ...CLEAN,
      "core/decision.ts": ["core/sequential.ts"],
      "core/sequential.ts": ["core/look.ts"],
      "core/look.ts": ["core/decision.ts", "core/stats.ts"],
    });
    expect(lines(g)).toEqual([
      "import cycle: action/src/core/decision.ts -> action/src/core/sequential.ts -> action/src/core/look.ts -> action/src/core/decision.ts",
    ]);
  });

  it("prints the shortest cycle of a knot, and a file that imports itself", () => {
    const g = graph({
      "core/a.ts": ["core/b.ts", "core/c.ts"],
      "core/b.ts": ["core/c.ts"],
      "core/c.ts": ["core/a.ts"],
      "render/self.ts": ["render/self.ts"],
    });
    expect(checkArchitecture(g, RULES)).toEqual([
      { rule: "cycle", path: ["core/a.ts", "core/c.ts", "core/a.ts"] },
      { rule: "cycle", path: ["render/self.ts", "render/self.ts"] },
    ]);
  });

  it("finds an import from the action into the CLI, and back, once each", () => {
    const g = graph({
      ...CLEAN,
      "action/gate.ts": ["cli/gate-session.ts"],
      "cli/gate-session.ts": ["action/event.ts"],
      "action/event.ts": [],
    });
    expect(lines(g)).toEqual([
      "action/ imports cli/: action/src/action/gate.ts imports action/src/cli/gate-session.ts (the two adapters share code only through the layers below them)",
      "cli/ imports action/: action/src/cli/gate-session.ts imports action/src/action/event.ts (the two adapters share code only through the layers below them)",
    ]);
  });

  it("finds an import up the ranks, and one sideways into another folder of the same rank", () => {
    const g = graph({
      ...CLEAN,
      "core/verdict.ts": ["gate/decide.ts"],
      "render/table.ts": ["core/stats.ts"],
    });
    expect(lines(g)).toEqual([
      "upward import: action/src/core/verdict.ts (core, rank 1) imports action/src/gate/decide.ts (gate, rank 2); a folder imports only lower ranks or itself",
      "sideways import: action/src/render/table.ts (render, rank 1) imports action/src/core/stats.ts (core, rank 1); a folder imports only lower ranks or itself",
    ]);
  });

  it("asks for a rank for a folder the table does not know", () => {
    const g = graph({ ...CLEAN, "toys/kind.ts": ["core/stats.ts"] });
    expect(checkArchitecture(g, RULES)).toEqual([
      { rule: "unranked", layer: "toys", file: "toys/kind.ts" },
    ]);
  });
});
