import { extname } from 'node:path';

const TYPES: Record<string, string> = {
  txt: 'text/plain; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  log: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  tsv: 'text/tab-separated-values; charset=utf-8',
  xml: 'application/xml',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  ts: 'text/plain; charset=utf-8',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  ico: 'image/x-icon',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  tar: 'application/x-tar',
  wasm: 'application/wasm',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  webm: 'video/webm',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/**
 * The content type of a file name, from its extension (`application/octet-stream` when unknown).
 * @example
 * contentTypeOf('notes/today.md') // 'text/markdown; charset=utf-8'
 */
export const contentTypeOf = (name: string): string => TYPES[extname(name).slice(1).toLowerCase()] ?? 'application/octet-stream';

/** True for content that reads as text (shown by `knowledge get`, indexed by search, printed as text). */
export const isTextType = (type: string): boolean =>
  /^text\//.test(type) || /^application\/(json|xml|yaml|javascript|x-ndjson)\b/.test(type) || /\+(json|xml)\b/.test(type);
