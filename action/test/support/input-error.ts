// Catches the InputError a pure function throws, so a test can check its message and JSON path.
import { InputError } from "../../src/errors.ts";

export function errorOf(fn: () => unknown): InputError {
  try {
    fn();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error("expected an InputError, nothing was thrown");
}
