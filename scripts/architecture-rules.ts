// The architecture rules `npm test` enforces on action/src, as a pure function of the import
// graph (scripts/check-architecture.ts reads the files and builds the graph). Three rules:
// - no import cycle between files: a cycle makes every file in it depend on all the others,
//   so none of them can be understood, tested or moved on its own;
// - adapters kept apart: the CLI and the action are two front ends over the same layers below;
//   one importing the other is how a fix for one silently changes the other;
// - imports run down the ranks: a folder imports only folders of a lower rank, or itself, so
//   the pure layers never reach the ones with side effects and each layer can be read knowing
//   only those below it.

/** Paths are relative to the scanned root (action/src), with "/" separators. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

export interface ArchitectureRules {
  /** Layer (a top-level folder, or a file directly in the root) → rank. */
  readonly ranks: ReadonlyMap<string, number>;
  /** Pairs of layers that must not import each other in either direction. */
  readonly apart: readonly (readonly [string, string])[];
}

export type Violation =
  | { readonly rule: "cycle"; readonly path: readonly string[] }
  | { readonly rule: "apart"; readonly from: string; readonly to: string }
  | {
      readonly rule: "rank";
      readonly from: string;
      readonly to: string;
      readonly fromRank: number;
      readonly toRank: number;
    }
  | { readonly rule: "unranked"; readonly layer: string; readonly file: string };

/** The layer a file belongs to: its top-level folder, or the file itself when it sits at the root. */
export function layerOf(file: string): string {
  const slash = file.indexOf("/");
  return slash < 0 ? file : file.slice(0, slash);
}

/** Strongly connected components (Tarjan), each with more than one file or a self-import. */
function knots(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v) as number);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}

/** The shortest cycle through `start` that stays inside its component (breadth first). */
function shortestCycle(graph: ImportGraph, start: string, within: ReadonlySet<string>): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i] as string;
    for (const w of [...(graph.get(v) ?? [])].sort()) {
      if (!within.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(previous.get(path[0] as string) as string);
        return [...path, start];
      }
      if (previous.has(w)) continue;
      previous.set(w, v);
      queue.push(w);
    }
  }
  return [start, start];
}

/**
 * Every violation, in a stable order: one cycle per knot of files that import each other (the
 * shortest through its first file: break it and run again for the next), then each offending
 * import.
 */
export function checkArchitecture(graph: ImportGraph, rules: ArchitectureRules): Violation[] {
  const violations: Violation[] = knots(graph).map((component) => ({
    rule: "cycle" as const,
    path: shortestCycle(graph, component[0] as string, new Set(component)),
  }));
  const unranked = new Set<string>();
  for (const from of [...graph.keys()].sort()) {
    const fromLayer = layerOf(from);
    const fromRank = rules.ranks.get(fromLayer);
    if (fromRank === undefined && !unranked.has(fromLayer)) {
      unranked.add(fromLayer);
      violations.push({ rule: "unranked", layer: fromLayer, file: from });
    }
    for (const to of [...new Set(graph.get(from))].sort()) {
      const toLayer = layerOf(to);
      if (toLayer === fromLayer) continue;
      const apart = rules.apart.some(
        ([a, b]) => (a === fromLayer && b === toLayer) || (a === toLayer && b === fromLayer),
      );
      const toRank = rules.ranks.get(toLayer);
      if (toRank === undefined && !unranked.has(toLayer)) {
        unranked.add(toLayer);
        violations.push({ rule: "unranked", layer: toLayer, file: to });
      }
      if (apart) violations.push({ rule: "apart", from, to });
      else if (fromRank !== undefined && toRank !== undefined && toRank >= fromRank)
        violations.push({ rule: "rank", from, to, fromRank, toRank });
    }
  }
  return violations;
}

/** One line per violation; `display` turns a graph path into the path a reader can open. */
export function describeViolation(v: Violation, display: (file: string) => string): string {
  switch (v.rule) {
    case "cycle":
      return `import cycle: ${v.path.map(display).join(" -> ")}`;
    case "apart":
      return `${layerOf(v.from)}/ imports ${layerOf(v.to)}/: ${display(v.from)} imports ${display(v.to)} (the two adapters share code only through the layers below them)`;
    case "rank":
      return `${v.toRank === v.fromRank ? "sideways" : "upward"} import: ${display(v.from)} (${layerOf(v.from)}, rank ${v.fromRank}) imports ${display(v.to)} (${layerOf(v.to)}, rank ${v.toRank}); a folder imports only lower ranks or itself`;
    case "unranked":
      return `${display(v.file)}: ${v.layer} has no rank in scripts/check-architecture.ts; give it one`;
  }
}
