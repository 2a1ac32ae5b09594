/** Values bound to a statement: by position or by name. */
export type SqlParams = unknown[] | Record<string, unknown>;

// Literals, quoted identifiers and comments (skipped), then `?`, `?NNN` and `:name` / `@name` / `$name`.
const TOKENS = /'(?:[^']|'')*'|"(?:[^"]|"")*"|`(?:[^`]|``)*`|\[[^\]]*\]|--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|\?(\d*)|(?<![\w$])[:@$]([\p{L}\p{N}_$]+)/gu;

/**
 * A check of the values given to a statement, as better-sqlite3 makes it (node:sqlite binds NULL for a missing
 * value). Numbering follows SQLite: `?` takes the next number, `?NNN` that number, a name the next number the
 * first time it appears.
 * @example
 * paramCheck('SELECT ?, ?')([1]) // throws RangeError: Too few parameter values were provided
 */
export function paramCheck(sql: string): (params: SqlParams | undefined) => void {
  let count = 0;
  const names = new Set<string>();
  for (const m of sql.matchAll(TOKENS)) {
    if (m[1] !== undefined) count = m[1] ? Math.max(count, Number(m[1])) : count + 1;
    else if (m[2] !== undefined && !names.has(m[2])) {
      names.add(m[2]);
      count++;
    }
  }
  return (params = []) => {
    if (Array.isArray(params)) {
      if (names.size) return;
      if (params.length < count) throw new RangeError('Too few parameter values were provided');
      if (params.length > count) throw new RangeError('Too many parameter values were provided');
      return;
    }
    for (const name of names) if (!(name in params)) throw new RangeError(`Missing named parameter "${name}"`);
  };
}
