import type { WeirError } from '../errors.js';

/**
 * The code texts one worker saw fail to compile, with their error, as a bounded least-recently-used map:
 * a flow whose Code node does not compile fails at once on later runs, without compiling again. (Code that
 * compiles is kept by the realm; a failed compilation replaces the realm, see realm.ts.)
 * @example
 * const syntaxErrors = createSyntaxErrorCache(256)
 * syntaxErrors.remember('return {', error)
 * syntaxErrors.get('return {') // error
 */
export function createSyntaxErrorCache(maxEntries: number) {
  const errors = new Map<string, WeirError>();
  return {
    /** The compile error seen for `code`, if any; it becomes the most recently used. */
    get(code: string): WeirError | undefined {
      const error = errors.get(code);
      if (error) {
        errors.delete(code);
        errors.set(code, error);
      }
      return error;
    },
    /** Keeps the compile error of `code`, dropping the least recently used past `maxEntries`. */
    remember(code: string, error: WeirError): void {
      errors.set(code, error);
      if (errors.size > maxEntries) errors.delete(errors.keys().next().value!);
    },
  };
}

export type SyntaxErrorCache = ReturnType<typeof createSyntaxErrorCache>;
