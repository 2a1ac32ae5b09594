import { join, posix, resolve } from 'node:path';
import { WeirError } from '../../errors.js';
import { loadOptional } from '../../util/optional.js';
import { MANIFEST_FILE, contentTypeOf, readSources } from './files.js';
import type { FileMap } from './types.js';

/** Module imports the build leaves alone: the host serves them at run time. */
const EXTERNAL = ['/weir-client.js'];

/** esbuild, an optional peer package, is loaded only when something is built. */
const loadEsbuild = () => loadOptional('esbuild', 'Building interfaces', () => import('esbuild'));

const MODULE_SCRIPT = /<script\b[^>]*\btype\s*=\s*["']module["'][^>]*>/gi;
const SRC_ATTR = /\bsrc\s*=\s*["']([^"']+)["']/i;
const SOURCE_ONLY = /\.(tsx?|jsx)$/;

/** Local module scripts an HTML page loads (`<script type="module" src="./main.js">`), as paths in the folder. */
function moduleEntries(htmlPath: string, html: string): string[] {
  const entries: string[] = [];
  for (const tag of html.match(MODULE_SCRIPT) ?? []) {
    const src = SRC_ATTR.exec(tag)?.[1];
    if (!src || /^([a-z]+:)?\/\//i.test(src) || EXTERNAL.includes(src) || src.startsWith('/')) continue;
    entries.push(posix.normalize(posix.join(posix.dirname(htmlPath), src.split(/[?#]/)[0])));
  }
  return entries;
}

/**
 * Builds an interface folder for serving: every module script an HTML page loads is bundled with esbuild
 * (TypeScript and JSX compiled, `.ts` references rewritten to `.js`); modules taken into a bundle are left
 * out, other files are copied as they are.
 * @example
 * const files = await buildInterface('./shop')
 * files.get('main.js')?.data.toString()
 */
export async function buildInterface(folder: string): Promise<FileMap> {
  const dir = resolve(folder);
  const sources = await readSources(dir);
  const pages = [...sources.keys()].filter((p) => /\.html?$/i.test(p));
  if (!pages.length) throw new WeirError('INVALID_INPUT', `no HTML page in ${dir}`, { hints: ['an interface needs an index.html'] });
  const entries = new Set<string>();
  for (const page of pages) for (const e of moduleEntries(page, sources.get(page)!.data.toString('utf8'))) entries.add(e);
  for (const e of entries) if (!sources.has(e)) throw new WeirError('INVALID_INPUT', `a page loads ${e}, which is not in ${dir}`);

  const bundled = entries.size ? await bundle(dir, [...entries]) : { outputs: new Map<string, Buffer>(), inputs: new Set<string>() };
  const out: FileMap = new Map();
  // Modules that went into a bundle are not served on their own.
  for (const [path, file] of sources) {
    if (path === MANIFEST_FILE || bundled.inputs.has(path) || SOURCE_ONLY.test(path)) continue;
    out.set(path, file);
  }
  for (const [path, data] of bundled.outputs) out.set(path, { contentType: contentTypeOf(path), data });
  // Pages that load a .ts entry now load the compiled .js.
  for (const page of pages) {
    const html = sources.get(page)!.data.toString('utf8');
    const rewritten = html.replace(MODULE_SCRIPT, (tag) => tag.replace(SRC_ATTR, (attr, src: string) => attr.replace(src, src.replace(SOURCE_ONLY, '.js'))));
    out.set(page, { contentType: contentTypeOf(page), data: Buffer.from(rewritten) });
  }
  return out;
}

/** Bundles entry modules in memory; returns the output files and the modules read, by path in the folder. */
async function bundle(dir: string, entries: string[]): Promise<{ outputs: Map<string, Buffer>; inputs: Set<string> }> {
  const esbuild = await loadEsbuild();
  let result;
  try {
    result = await esbuild.build({
      absWorkingDir: dir,
      entryPoints: entries.map((e) => join(dir, e)),
      outdir: dir,
      outbase: dir,
      entryNames: '[dir]/[name]',
      bundle: true,
      format: 'esm',
      target: 'es2020',
      minify: true,
      write: false,
      metafile: true,
      allowOverwrite: true,
      external: EXTERNAL,
      logLevel: 'silent',
    });
  } catch (err) {
    const errors = (err as { errors?: Array<{ text: string; location?: { file: string; line: number; column: number } | null }> }).errors ?? [];
    const lines = errors.map((e) => (e.location ? `${e.location.file}:${e.location.line}:${e.location.column}: ${e.text}` : e.text));
    throw new WeirError('INVALID_INPUT', `build failed:\n${lines.map((l) => `  ${l}`).join('\n') || (err as Error).message}`, { details: lines });
  }
  const outputs = new Map<string, Buffer>();
  for (const f of result.outputFiles) outputs.set(posix.normalize(f.path.slice(dir.length + 1).split('\\').join('/')), Buffer.from(f.contents));
  const inputs = new Set(Object.keys(result.metafile.inputs).map((p) => posix.normalize(p.split('\\').join('/'))));
  return { outputs, inputs };
}
