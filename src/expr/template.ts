import { compile, type Evaluate } from './compile.js';
import { parseExpression } from './parse.js';
import { toText } from './values.js';

/**
 * Compiles a string holding `{{ }}` expressions. A string that is exactly one expression evaluates to the
 * expression's value (its type kept); otherwise the parts are joined as text. Returns null when the string
 * holds no expression. Throws a WeirError (with the position) on a syntax error.
 */
export function compileTemplate(text: string): Evaluate | null {
  let open = text.indexOf('{{');
  if (open < 0) return null;
  const parts: Array<string | Evaluate> = [];
  let at = 0;
  while (open >= 0) {
    if (open > at) parts.push(text.slice(at, open));
    const { ast, end } = parseExpression(text, open + 2);
    parts.push(compile(ast));
    at = end;
    open = text.indexOf('{{', at);
  }
  if (at < text.length) parts.push(text.slice(at));
  if (parts.length === 1) return parts[0] as Evaluate;
  return (scope) => {
    let out = '';
    for (const part of parts) out += typeof part === 'string' ? part : toText(part(scope));
    return out;
  };
}
