import { isTextType } from '../objects/content-type.js';

// Indexed text per document is capped so one huge file cannot swamp the search index.
const MAX_TEXT = 2 * 1024 * 1024;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Visible text of an HTML page: scripts, styles and tags removed, entities decoded, whitespace folded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<\/?(p|div|br|li|h[1-6]|tr|section|article|header|footer)\b[^>]*>/gi, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === '#') return String.fromCodePoint(e[1].toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/[ \t\f\v]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
}

/** The words of a JSON document: every key and every string, number and boolean value, one per line. */
export function jsonToText(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        out.push(k);
        walk(x);
      }
    } else if (v !== null && v !== undefined) out.push(String(v));
  };
  walk(value);
  return out.join('\n');
}

/**
 * The searchable text of a document, or null for binary content: text and markdown as they are, HTML without
 * tags, JSON as its keys and values.
 * @example
 * extractText(Buffer.from('<p>Hi <b>there</b></p>'), 'text/html') // 'Hi there'
 */
export function extractText(body: Buffer, contentType: string): string | null {
  if (!isTextType(contentType)) return null;
  const text = body.subarray(0, MAX_TEXT).toString('utf8');
  if (/html/.test(contentType)) return htmlToText(text);
  if (/json/.test(contentType)) return jsonToText(text);
  return text;
}
