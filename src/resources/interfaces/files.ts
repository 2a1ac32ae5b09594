import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { WeirError } from '../../errors.js';
import type { FileMap } from './types.js';

export const MANIFEST_FILE = 'weir.interface.json';

/** The sources of one interface may not exceed this (a frontend, not an asset store). */
const MAX_BYTES = 20 * 1024 * 1024;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.ts': 'text/plain; charset=utf-8',
  '.tsx': 'text/plain; charset=utf-8',
};

/** The content type served for a file name (by extension). */
export const contentTypeOf = (path: string): string => TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';

/** Entries that are never part of an interface: dot files (`.git`, `.env`) and installed packages. */
const skipped = (name: string) => name.startsWith('.') || name === 'node_modules';

/**
 * Reads every source file of an interface folder (dot files and node_modules left out).
 * @example
 * const files = await readSources('./shop')   // Map { 'index.html' => {contentType, data}, ... }
 */
export async function readSources(dir: string): Promise<FileMap> {
  const files: FileMap = new Map();
  let total = 0;
  const walk = async (abs: string, rel: string): Promise<void> => {
    const entries = await readdir(abs, { withFileTypes: true });
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (skipped(entry.name)) continue;
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(join(abs, entry.name), path);
      else if (entry.isFile()) {
        const data = await readFile(join(abs, entry.name));
        total += data.length;
        if (total > MAX_BYTES) throw new WeirError('RULE', `interface sources exceed ${MAX_BYTES / 1024 / 1024} MB (at ${path})`);
        files.set(path, { contentType: contentTypeOf(path), data });
      }
    }
  };
  try {
    if (!(await stat(dir)).isDirectory()) throw new Error('not a directory');
  } catch {
    throw new WeirError('NOT_FOUND', `interface folder not found: ${dir}`);
  }
  await walk(dir, '');
  return files;
}

/** A file map as a plain object for storage (`{ path: { contentType, base64 } }`). */
export const packFiles = (files: FileMap): Record<string, { contentType: string; base64: string }> =>
  Object.fromEntries([...files].map(([path, f]) => [path, { contentType: f.contentType, base64: f.data.toString('base64') }]));

/** The inverse of {@link packFiles}. */
export const unpackFiles = (packed: Record<string, { contentType: string; base64: string }>): FileMap =>
  new Map(Object.entries(packed).map(([path, f]) => [path, { contentType: f.contentType, data: Buffer.from(f.base64, 'base64') }]));

/** Total size in bytes of a file map. */
export const sizeOf = (files: FileMap): number => [...files.values()].reduce((n, f) => n + f.data.length, 0);
