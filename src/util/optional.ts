import { WeirError } from '../errors.js';

/** The optional peer packages: installed by the user only for the feature that needs them. */
export type OptionalPackage = 'ioredis' | 'bullmq' | 'pg' | 'playwright-core' | 'esbuild' | '@modelcontextprotocol/sdk';

/** True when `err` says that `pkg` itself (not something it imports) could not be found. */
function isMissing(err: unknown, pkg: string): boolean {
  const { code, message } = (err ?? {}) as { code?: string; message?: string };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  // Node quotes the name it could not find ("Cannot find package 'pg'", "Cannot find module 'pg'"); a package
  // that is there but misses one of its own dependencies names that dependency instead.
  return typeof message === 'string' && message.includes(`'${pkg}'`);
}

/**
 * Loads an optional peer package on first use. `load` is the literal `import()` of the caller, so the bundler
 * keeps the package external and the types follow; a package that is not installed becomes `UNAVAILABLE`
 * with the command that installs it. Any other failure (a broken install) is passed on as it is.
 * @example
 * const { Redis } = await loadOptional('ioredis', 'Redis storage', () => import('ioredis'))
 */
export async function loadOptional<T>(pkg: OptionalPackage, feature: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (!isMissing(err, pkg)) throw err;
    throw new WeirError('UNAVAILABLE', `${feature} needs the package ${pkg}, which is not installed: install ${pkg} (npm install ${pkg})`, {
      hints: [`npm install ${pkg}`],
      cause: err,
    });
  }
}
