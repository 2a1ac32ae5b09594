import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { WeirError } from '../errors.js';
import { jsonSyntaxProblem } from '../util/json-syntax.js';
import type { CliIO } from './types.js';

/** Reads a file relative to the CLI's working directory; a missing file is NOT_FOUND with its path. */
export async function readUserFile(cwd: string, file: string): Promise<Buffer> {
  try {
    return await readFile(resolve(cwd, file));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new WeirError(code === 'ENOENT' ? 'NOT_FOUND' : 'INVALID_INPUT', code === 'ENOENT' ? `file not found: ${file}` : `cannot read ${file}: ${(err as Error).message}`);
  }
}

/** Parses JSON text given on the command line or in a file, naming where it came from on failure. */
export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new WeirError('INVALID_INPUT', `${what} is not valid JSON: ${jsonSyntaxProblem(text, err)}`);
  }
}

/**
 * Reads standard input to its end as UTF-8 text. `null` when there is none to read (not given, or a
 * terminal: a value typed there would be echoed and kept in the scrollback).
 * @example
 * const text = await readStdin(ctx.io.stdin) // 'x\n' for `echo x | weir ...`
 */
export async function readStdin(stdin: CliIO['stdin']): Promise<string | null> {
  if (!stdin || (stdin as { isTTY?: boolean }).isTTY) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Text without one trailing line end, as `echo value |` and editors add one: `'x\n'` -> `'x'`. */
export const withoutFinalNewline = (text: string): string => text.replace(/\r?\n$/, '');
