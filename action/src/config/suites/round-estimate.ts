// What the kinds' round-time guesses share (SuiteKind.estimateSideMs; runner/cost-estimate.ts
// adds them up before round 1, and round 1's measured time replaces the guess).

/**
 * A process's start, Criterion's analysis and the odd burst: a short process of 0.2 s + 0.5 s
 * took 0.7–0.9 s on a 2-core VM (docs/run.md).
 */
export const PROCESS_MS = 300;
