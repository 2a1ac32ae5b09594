import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { WeirError } from '../errors.js';

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
    throw new WeirError('INVALID_INPUT', `${what} is not valid JSON: ${(err as Error).message}`);
  }
}
