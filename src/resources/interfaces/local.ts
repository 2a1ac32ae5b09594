import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { WeirError } from '../../errors.js';
import { jsonSyntaxProblem } from '../../util/json-syntax.js';
import { MANIFEST_FILE } from './files.js';
import { INTERFACE_TYPES, type InterfaceManifest } from './types.js';

/** An interface folder on disk: where it is and what its marker file says. */
export interface InterfaceFolder {
  dir: string;
  manifest: InterfaceManifest;
}

/** Reads `weir.interface.json` of a folder, or null when the folder holds none. */
export async function readManifest(dir: string): Promise<InterfaceManifest | null> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST_FILE), 'utf8');
  } catch {
    return null;
  }
  let m: Partial<InterfaceManifest>;
  try {
    m = JSON.parse(text);
  } catch (err) {
    throw new WeirError('INVALID_CONFIG', `${join(dir, MANIFEST_FILE)} is not valid JSON: ${jsonSyntaxProblem(text, err)}`);
  }
  if (!m || typeof m.id !== 'string' || typeof m.name !== 'string' || !INTERFACE_TYPES.includes(m.type as never)) {
    throw new WeirError('INVALID_CONFIG', `${join(dir, MANIFEST_FILE)} must hold {"id", "name", "type": "external"|"internal"}`);
  }
  return m as InterfaceManifest;
}

/**
 * The interface folder the working directory is in (it or a parent holds `weir.interface.json`), or null.
 * @example
 * const here = await findInterfaceFolder(process.cwd())   // { dir: '/src/shop', manifest: {id, name, type} }
 */
export async function findInterfaceFolder(cwd: string): Promise<InterfaceFolder | null> {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const manifest = await readManifest(dir);
    if (manifest) return { dir, manifest };
    if (dirname(dir) === dir) return null;
  }
}
