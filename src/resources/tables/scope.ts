import { WeirError } from '../../errors.js';
import type { Touched } from './types.js';

// String literals and comments are skipped; quoted identifiers ("x", `x`, [x]) and bare words are names.
const TOKEN = /'(?:[^']|'')*'|--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|"((?:[^"]|"")*)"|`((?:[^`]|``)*)`|\[([^\]]*)\]|([A-Za-z_][\w$]*)/g;

/**
 * The names a statement spells, unquoted and in lower case; words inside string literals and comments are
 * not names.
 * @example
 * spelledNames(`SELECT a FROM "user.t" WHERE b = 'user.x'`) // Set { 'select', 'a', 'from', 'user.t', 'where', 'b' }
 */
export function spelledNames(sql: string): Set<string> {
  const names = new Set<string>();
  for (const m of sql.matchAll(TOKEN)) {
    const name = m[1]?.replace(/""/g, '"') ?? m[2]?.replace(/``/g, '`') ?? m[3] ?? m[4];
    if (name !== undefined) names.add(name.toLowerCase());
  }
  return names;
}

/**
 * Keeps a table query to the table it names: any other table the statement opens (`touched`, from the
 * engine's compiled program or plan) or spells (`tables`: every table of the organization) is refused. Both
 * are checked because the engine's optimizer leaves out tables whose rows it never needs (a LEFT JOIN on a
 * unique key, a subquery under `WHERE 0`), and the spelling alone would miss nothing an engine opens.
 * @example
 * checkScope('user.orders', 'SELECT * FROM "user.orders" JOIN "user.customers" USING (id)', touched, ['user.orders', 'user.customers'])
 * // throws RULE: the query of "user.orders" may not use "user.customers"
 */
export function checkScope(target: string, sql: string, touched: Touched[], tables: Iterable<string>): void {
  const own = target.toLowerCase();
  let other = touched.find((t) => t.name.toLowerCase() !== own)?.name;
  if (!other) {
    const lower = sql.toLowerCase();
    // Spelling a table's name is rare: the scan runs only when some other name occurs in the text at all.
    const candidates = [...tables].filter((name) => name.toLowerCase() !== own && lower.includes(name.toLowerCase()));
    if (candidates.length) {
      const spelled = spelledNames(sql);
      other = candidates.find((name) => spelled.has(name.toLowerCase()));
    }
  }
  if (other) {
    throw new WeirError('RULE', `a query of "${target}" may use only that table; this statement also uses "${other}"`, {
      hints: [`query "${other}" on its own: \`weir data tables query ${other} <sql>\``],
    });
  }
}
