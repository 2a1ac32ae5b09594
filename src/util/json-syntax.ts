/** Where JSON text stops being JSON: the offset (UTF-16 units) and what was wrong there. */
interface JsonFault {
  at: number;
  problem: string;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isHex = (c: string | undefined) => c !== undefined && /^[0-9a-fA-F]$/.test(c);
// An invisible or control character is named by its code point, so the message shows something.
const shown = (c: string) => (c < ' ' || c === '\uFEFF' || c === '\u00A0' ? `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : `'${c}'`);

/**
 * The first fault of text that JSON.parse refused, found by reading it as the JSON grammar does. Node's own
 * message is not used for this: depending on the version it names a position, a line and column, or only
 * a snippet of the text (which may span lines), and for an unexpected token no position at all.
 */
function findFault(text: string): JsonFault | null {
  let i = 0;
  const fault = (problem: string, at = i): JsonFault => ({ at, problem });
  const unexpected = () => (i >= text.length ? fault('Unexpected end of JSON input') : fault(`Unexpected token ${shown(text[i])}`));
  const skipSpace = () => {
    while (WHITESPACE.has(text[i])) i++;
  };

  const string = (): JsonFault | null => {
    for (i++; ; i++) {
      const c = text[i];
      if (c === undefined) return fault('Unterminated string');
      if (c === '"') return i++, null;
      if (c < ' ') return fault('Bad control character in string literal');
      if (c !== '\\') continue;
      const e = text[++i];
      if (e === 'u') {
        for (let k = 1; k <= 4; k++) if (!isHex(text[i + k])) return fault('Bad Unicode escape', i + k);
        i += 4;
      } else if (e === undefined) return fault('Unterminated string');
      else if (!ESCAPES.has(e)) return fault('Bad escaped character');
    }
  };

  const number = (): JsonFault | null => {
    if (text[i] === '-' && !isDigit(text[++i])) return fault('No number after minus sign');
    if (text[i] === '0') i++;
    else while (isDigit(text[i])) i++;
    if (text[i] === '.') {
      if (!isDigit(text[++i])) return fault('Unterminated fractional number');
      while (isDigit(text[i])) i++;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      if (text[i + 1] === '+' || text[i + 1] === '-') i++;
      if (!isDigit(text[++i])) return fault('Exponent part is missing a number');
      while (isDigit(text[i])) i++;
    }
    return null;
  };

  const literal = (word: string): JsonFault | null => {
    for (const c of word) {
      if (text[i] !== c) return unexpected();
      i++;
    }
    return null;
  };

  // A property name and its colon, after `{` or `,` in an object.
  const key = (first: boolean): JsonFault | null => {
    skipSpace();
    if (text[i] !== '"') return i >= text.length ? unexpected() : fault(first ? "Expected property name or '}'" : 'Expected double-quoted property name');
    const name = string();
    if (name) return name;
    skipSpace();
    if (text[i] !== ':') return i >= text.length ? unexpected() : fault("Expected ':' after property name");
    i++;
    return null;
  };

  // The open objects and arrays, innermost last: a loop rather than recursion, so `[[[[...` a million deep
  // (which JSON.parse reads) does not overflow the call stack.
  const open: string[] = [];
  for (;;) {
    skipSpace();
    const c = text[i];
    let f: JsonFault | null = null;
    if (c === '{' || c === '[') {
      i++;
      skipSpace();
      if (text[i] === (c === '{' ? '}' : ']')) i++;
      else {
        open.push(c);
        f = c === '{' ? key(true) : null;
        if (f) return f;
        continue;
      }
    } else if (c === '"') f = string();
    else if (c === '-' || isDigit(c)) f = number();
    else if (c === 't') f = literal('true');
    else if (c === 'f') f = literal('false');
    else if (c === 'n') f = literal('null');
    else f = unexpected();
    if (f) return f;
    // After a value: close what it ends, then expect the next value, or the end of the text.
    for (;;) {
      skipSpace();
      const inside = open.at(-1);
      if (!inside) return i < text.length ? fault('Unexpected non-whitespace character after JSON') : null;
      const close = inside === '{' ? '}' : ']';
      if (text[i] === close) {
        i++;
        open.pop();
        continue;
      }
      if (text[i] !== ',') return i >= text.length ? unexpected() : fault(inside === '{' ? "Expected ',' or '}' after property value" : "Expected ',' or ']' after array element");
      i++;
      f = inside === '{' ? key(false) : null;
      if (f) return f;
      break;
    }
  }
}

/** 1-based line and column of an offset (a line ends at `\n`; the column counts UTF-16 units, as editors mostly do). */
function lineAndColumn(text: string, at: number): { line: number; column: number } {
  const before = text.slice(0, at);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: at - lineStart + 1 };
}

/**
 * Why JSON.parse refused `text`, as one line that names the line and column of the fault, the same under
 * every Node version. `err` (what JSON.parse threw) is used only if the text reads as valid here.
 * @example
 * try { JSON.parse(text) } catch (err) { throw new WeirError('INVALID_INPUT', `flow.json is not valid JSON: ${jsonSyntaxProblem(text, err)}`) }
 * // flow.json is not valid JSON: Expected ',' or '}' after property value at line 3, column 5
 */
export function jsonSyntaxProblem(text: string, err: unknown): string {
  const fault = findFault(text);
  if (!fault) return String((err as Error)?.message ?? err).split('\n')[0];
  const { line, column } = lineAndColumn(text, fault.at);
  return `${fault.problem} at line ${line}, column ${column}`;
}
