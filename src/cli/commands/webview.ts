import { WeirError } from '../../errors.js';
import type { CommandContext, CommandSpec, FlagSpec } from '../types.js';
import type { WebviewAction } from '../../devserver/webview.js';

const id = { name: 'interface-id', required: true };
const timeout: Record<string, FlagSpec> = { timeout: { type: 'number', summary: 'how long to wait for the element, in ms (default 5000)', placeholder: 'ms' } };

/** Sends one action to the preview of the command's interface. */
async function act(ctx: CommandContext, action: WebviewAction): Promise<any> {
  const { callWebview } = await import('../../devserver/control.js');
  return callWebview(ctx.home, ctx.args['interface-id']!, action);
}

const ms = (text: string | undefined, what: string): number => {
  const n = Number(text);
  if (text === undefined || !Number.isFinite(n) || n < 0) throw new WeirError('INVALID_INPUT', `${what} must be a number of milliseconds, got "${text}"`);
  return n;
};

/** Width and height from a PNG's IHDR chunk. */
const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

/** The webview commands: they act on the page a running `preview` keeps open. */
export const webviewCommands: CommandSpec[] = [
  {
    name: 'screenshot',
    summary: 'save a PNG screenshot of the preview (default file: <interface>-<time>.png)',
    args: [id, { name: 'file' }],
    flags: { 'full-page': { type: 'boolean', summary: 'the whole scrollable page, not only the viewport' } },
    async run(ctx) {
      const { writeFile } = await import('node:fs/promises');
      const { resolve } = await import('node:path');
      const r = await act(ctx, { action: 'screenshot', fullPage: ctx.flags['full-page'] });
      const png = Buffer.from(r.png, 'base64');
      const name = ctx.args.file ?? `${ctx.args['interface-id']}-${new Date().toISOString().replace(/[:.]/g, '-')}.png`;
      const file = resolve(ctx.io.cwd, name);
      await writeFile(file, png);
      const size = pngSize(png);
      return { data: { file, bytes: png.length, ...size }, text: `saved ${file} (${size.width}x${size.height}, ${png.length} bytes)` };
    },
  },
  {
    name: 'click',
    summary: 'click the element matched by a CSS selector',
    args: [id, { name: 'selector', required: true }],
    flags: timeout,
    async run(ctx) {
      await act(ctx, { action: 'click', selector: ctx.args.selector!, timeout: ctx.flags.timeout });
      return { data: { clicked: ctx.args.selector }, text: `clicked ${ctx.args.selector}` };
    },
  },
  {
    name: 'type',
    summary: 'type text into the element (its value becomes the text)',
    args: [id, { name: 'selector', required: true }, { name: 'text', required: true, variadic: true }],
    flags: timeout,
    async run(ctx) {
      const text = ctx.rest.join(' ');
      await act(ctx, { action: 'type', selector: ctx.args.selector!, text, timeout: ctx.flags.timeout });
      return { data: { selector: ctx.args.selector, text }, text: `typed ${JSON.stringify(text)} into ${ctx.args.selector}` };
    },
  },
  {
    name: 'eval',
    summary: 'run JavaScript in the preview page and print the JSON of the result',
    args: [id, { name: 'code', required: true, variadic: true }],
    async run(ctx) {
      const { result } = await act(ctx, { action: 'eval', code: ctx.rest.join(' ') });
      return { data: result, text: JSON.stringify(result, null, 2) };
    },
  },
  {
    name: 'url',
    summary: 'the current URL of the preview',
    args: [id],
    async run(ctx) {
      const { url } = await act(ctx, { action: 'url' });
      return { data: { url }, text: url };
    },
  },
  {
    name: 'nav',
    summary: 'navigate the preview (a path is relative to the dev server)',
    args: [id, { name: 'url', required: true }],
    flags: { timeout: { ...timeout.timeout, summary: 'how long the page may take to load, in ms (default 5000)' } },
    async run(ctx) {
      const { url } = await act(ctx, { action: 'nav', url: ctx.args.url!, timeout: ctx.flags.timeout });
      return { data: { url }, text: url };
    },
  },
  {
    name: 'wait',
    summary: 'wait the given milliseconds in the preview',
    args: [id, { name: 'ms', required: true }],
    async run(ctx) {
      const waited = ms(ctx.args.ms, '<ms>');
      await act(ctx, { action: 'wait', ms: waited });
      return { data: { waited }, text: `waited ${waited} ms` };
    },
  },
];
