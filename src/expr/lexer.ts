import { WeirError } from '../errors.js';

/** Token kinds: names (`$input`, `lower`), literals, punctuation, and `}}` closing the expression. */
export type TokenKind = 'name' | 'number' | 'string' | 'punct' | 'close' | 'eof';

export interface Token {
  kind: TokenKind;
  /** The name, the punctuation, or the literal's value. */
  value: string | number;
  /** Offset in the template string (for error messages). */
  pos: number;
}

const PUNCT = ['??', '==', '!=', '<=', '>=', '&&', '||', '.', '[', ']', '(', ')', ',', '?', ':', '<', '>', '!', '+', '-', '*', '/', '%'];
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' };
const isNameStart = (c: string) => /[A-Za-z_$]/.test(c);
const isNameChar = (c: string) => /[\w$]/.test(c);

/** A parse error in a `{{ }}` expression; `position` is the offset in the template string. */
export function syntaxError(source: string, pos: number, message: string): WeirError {
  // A long template is quoted around the position only, so the message stays readable.
  const quoted = source.length <= 200 ? JSON.stringify(source) : `${JSON.stringify(source.slice(Math.max(0, pos - 40), pos + 40))} (part of a ${source.length}-character template)`;
  return new WeirError('INVALID_CONFIG', `expression error at position ${pos}: ${message} in ${quoted}`, {
    details: { position: pos, template: source },
  });
}

/**
 * A pull lexer over one template string, starting inside `{{`. The parser takes tokens one at a time, which
 * lets it read a node id such as `set-1` after `$node.` with {@link Lexer.nodeId} (elsewhere `-` is minus).
 */
export function createLexer(source: string, start: number) {
  let pos = start;
  let peeked: Token | null = null;
  const fail = (at: number, message: string): never => {
    throw syntaxError(source, at, message);
  };
  const skipSpace = () => {
    while (pos < source.length && /\s/.test(source[pos])) pos++;
  };

  function readString(quote: string): Token {
    const at = pos++;
    let out = '';
    while (pos < source.length && source[pos] !== quote) {
      const c = source[pos++];
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = source[pos++];
      if (e === undefined) break;
      if (e === 'u') {
        const hex = source.slice(pos, pos + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail(pos - 2, 'bad \\u escape (expected 4 hex digits)');
        out += String.fromCharCode(parseInt(hex, 16));
        pos += 4;
      } else out += ESCAPES[e] ?? e;
    }
    if (source[pos] !== quote) fail(at, 'unterminated string');
    pos++;
    return { kind: 'string', value: out, pos: at };
  }

  function lex(): Token {
    skipSpace();
    const at = pos;
    const c = source[pos];
    if (c === undefined) return { kind: 'eof', value: '', pos };
    if (c === '}' && source[pos + 1] === '}') {
      pos += 2;
      return { kind: 'close', value: '}}', pos: at };
    }
    if (c === '"' || c === "'") return readString(c);
    if (/\d/.test(c) || (c === '.' && /\d/.test(source[pos + 1] ?? ''))) {
      const m = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(source.slice(pos))!;
      pos += m[0].length;
      if (isNameChar(source[pos] ?? '')) fail(pos, `unexpected "${source[pos]}" after a number`);
      return { kind: 'number', value: Number(m[0]), pos: at };
    }
    if (isNameStart(c)) {
      while (pos < source.length && isNameChar(source[pos])) pos++;
      return { kind: 'name', value: source.slice(at, pos), pos: at };
    }
    if (c === '=' && source[pos + 1] === '=' && source[pos + 2] === '=') fail(at, 'use == (comparisons are strict already)');
    if (c === '!' && source[pos + 1] === '=' && source[pos + 2] === '=') fail(at, 'use != (comparisons are strict already)');
    for (const p of PUNCT) {
      if (source.startsWith(p, pos)) {
        pos += p.length;
        return { kind: 'punct', value: p, pos: at };
      }
    }
    if (c === '=') fail(at, 'assignment is not allowed');
    return fail(at, `unexpected character "${c}"`);
  }

  return {
    peek(): Token {
      return (peeked ??= lex());
    },
    next(): Token {
      const t = peeked ?? lex();
      peeked = null;
      return t;
    },
    /** After `$node.`: a node id, which may hold `-` followed by digits (`set-1`, `http_request-12`). */
    nodeId(): Token {
      if (peeked) return this.next();
      skipSpace();
      const at = pos;
      const m = /^[A-Za-z_][\w]*(?:-\d+)*/.exec(source.slice(pos));
      if (!m) return fail(at, 'expected a node id after "$node."');
      pos += m[0].length;
      return { kind: 'name', value: m[0], pos: at };
    },
    fail,
    get pos() {
      return peeked ? peeked.pos : pos;
    },
  };
}

export type Lexer = ReturnType<typeof createLexer>;
