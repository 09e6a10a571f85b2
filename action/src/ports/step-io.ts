// The action's side effects in our words: inputs, outputs, the job summary, annotations and the
// log. The real one wraps @actions/core; tests pass a recording one.
export interface StepIO {
  readonly input: (name: string) => string;
  readonly setOutput: (name: string, value: string) => void;
  /** Appends markdown to the job summary. */
  readonly summary: (markdown: string) => Promise<void>;
  /** An error annotation on the run (shown on the PR's checks tab). */
  readonly annotate: (title: string, message: string) => void;
  readonly info: (text: string) => void;
  readonly warning: (text: string) => void;
  /** Marks the step failed with this message (the process then exits non-zero). */
  readonly fail: (message: string) => void;
}
