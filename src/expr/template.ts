import { compile, type Evaluate, type Scope } from './compile.js';
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
  return join(parts);
}

/**
 * The parts as one text. Each expression is joined with the text before it into one closure, and up to three
 * such closures with the text after the last get a closure of their own: no loop and no type test per part,
 * which is most of the cost of a foreach `map` label over many items.
 */
function join(parts: Array<string | Evaluate>): Evaluate {
  const pieces: Array<(s: Scope) => string> = [];
  let before = '';
  for (const part of parts) {
    if (typeof part === 'string') before += part;
    else {
      const text = before;
      pieces.push(text ? (s) => text + toText(part(s)) : (s) => toText(part(s)));
      before = '';
    }
  }
  const tail = before;
  const [a, b, c] = pieces;
  switch (pieces.length) {
    case 1:
      return (s) => a(s) + tail;
    case 2:
      return (s) => a(s) + b(s) + tail;
    case 3:
      return (s) => a(s) + b(s) + c(s) + tail;
    default:
      return (s) => {
        let out = '';
        for (let i = 0; i < pieces.length; i++) out += pieces[i](s);
        return out + tail;
      };
  }
}
