// Fixture paths and error-capturing helpers for the tests.
import { expect } from "vitest";
import { InputError } from "../../src/errors.ts";
import { nodeFileReader } from "../../src/io/node-files.ts";
import type { FileReader } from "../../src/ports/files.ts";

export const FIXTURES = decodeURIComponent(new URL("../fixtures", import.meta.url).pathname);
export const SHARED = `${FIXTURES}/shared-captured`;
export const HAND_MADE = `${FIXTURES}/ingest`;

export async function loadJson(file: string): Promise<unknown> {
  return JSON.parse(await nodeFileReader.readText(file, 64 * 1024 * 1024)) as unknown;
}

/**
 * A reader that gives `text` for every file, whatever its cap: what is under test is what the
 * parser makes of the text (its character cap is the file's byte cap), not the file system.
 */
export function textReader(text: string): FileReader {
  return { ...nodeFileReader, readText: () => Promise.resolve(text) };
}

/** Runs `fn`, expects an InputError, and returns its one-line description. */
export function inputErrorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).describe();
  }
  throw new Error("expected an InputError, nothing was thrown");
}

/** Awaits `fn`, expects an InputError, and returns its one-line description. */
export async function asyncInputErrorOf(fn: () => Promise<unknown>): Promise<string> {
  try {
    await fn();
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return error.describe();
  }
  throw new Error("expected an InputError, nothing was thrown");
}
