// The CLI's exit codes, the contract scripts and CI read (docs/cli.md): a regression is exit 1
// from the verdict, never an exception.
export const EXIT = Object.freeze({ pass: 0, gateFailed: 1, badInput: 2, toolFailure: 3 });
