import { createWriteStream } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { WeirError } from '../errors.js';
import { loadOptional } from '../util/optional.js';
import { CHROMIUM_ARGS } from './browser.js';

/** One request to the webview control API (`POST /__weir/webview`). */
export type WebviewAction =
  /** `after`: first wait (up to `wait` ms) until the page's change count passes this number. */
  | { action: 'screenshot'; fullPage?: boolean; after?: number; wait?: number }
  | { action: 'click'; selector: string; timeout?: number }
  | { action: 'type'; selector: string; text: string; timeout?: number }
  | { action: 'eval'; code: string }
  | { action: 'url' }
  | { action: 'nav'; url: string; timeout?: number }
  | { action: 'wait'; ms: number };

export const DEFAULT_TIMEOUT = 5000;

/** The actions that may change what the page shows; each one counts as a change once it is done. */
const CHANGING = new Set(['click', 'type', 'eval', 'nav']);

/**
 * Reports DOM changes of every document the page loads to the `__weirPageChanged` binding, at most one
 * report per 50 ms (a page that redraws continuously must not flood the control process).
 */
const CHANGE_OBSERVER = `(() => {
  let queued = false;
  const report = () => {
    if (queued) return;
    queued = true;
    setTimeout(() => { queued = false; window.__weirPageChanged?.(); }, 50);
  };
  new MutationObserver(report).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})();`;

export interface WebviewOptions {
  /** The Chromium binary (see findChromium). */
  executablePath: string;
  /** The page to open (the dev server's URL). */
  url: string;
  /** Console messages of the page are appended here, one line each. */
  consoleFile: string;
  log(line: string): void;
}

export type Webview = Awaited<ReturnType<typeof openWebview>>;

/** Maps a Playwright failure on a selector to the error a user should see. */
function selectorError(err: unknown, selector: string, timeout: number): WeirError {
  const e = err as Error;
  if (e.name === 'TimeoutError') return new WeirError('NOT_FOUND', `no element matches "${selector}" (waited ${timeout} ms)`, { hints: ['check the selector with `weir eval <id> "document.querySelector(...)"`'] });
  const message = e.message.replace(/^[\w.]+: /, '').split('\n')[0];
  return new WeirError('INVALID_INPUT', `${selector}: ${message}`);
}

const FIELDS: Record<string, Record<string, 'string' | 'number'>> = {
  screenshot: {},
  click: { selector: 'string' },
  type: { selector: 'string', text: 'string' },
  eval: { code: 'string' },
  url: {},
  nav: { url: 'string' },
  wait: { ms: 'number' },
};

/** Refuses a malformed control request before it reaches the page. */
function checkAction(req: Record<string, unknown>): void {
  const fields = FIELDS[String(req?.action)];
  if (!fields) throw new WeirError('INVALID_INPUT', `unknown webview action "${req?.action}"`);
  for (const [name, type] of Object.entries(fields)) {
    if (typeof req[name] !== type) throw new WeirError('INVALID_INPUT', `"${name}" must be a ${type}`);
  }
  if (req.timeout !== undefined && !(typeof req.timeout === 'number' && req.timeout >= 0)) throw new WeirError('INVALID_INPUT', '"timeout" must be a number of ms');
  for (const name of ['after', 'wait']) {
    if (req[name] !== undefined && !(typeof req[name] === 'number' && (req[name] as number) >= 0)) throw new WeirError('INVALID_INPUT', `"${name}" must be a number, 0 or more`);
  }
  if (req.action === 'wait' && !((req.ms as number) >= 0)) throw new WeirError('INVALID_INPUT', '"ms" must be 0 or more');
}

/**
 * Opens a headless Chromium with one page on `url` and keeps it: every control call acts on that page.
 * Console messages and page errors are written to `consoleFile`. The page's changes are counted (`version`):
 * each page load, each burst of DOM changes and each action that may change it (click, type, eval, nav), so
 * a screenshot can wait for the next change (`after`) and say which change it shows.
 * @example
 * const view = await openWebview({ executablePath: '/usr/bin/chromium', url, consoleFile, log: console.log })
 * await view.perform({ action: 'click', selector: '#send' })
 */
export async function openWebview(options: WebviewOptions) {
  const { chromium } = await loadOptional('playwright-core', 'The interface preview browser', () => import('playwright-core'));
  const browser: Browser = await chromium.launch({
    executablePath: options.executablePath,
    args: CHROMIUM_ARGS,
    // The dev server decides when the browser closes (it closes it on its own SIGTERM).
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const consoleOut = createWriteStream(options.consoleFile, { flags: 'a' });
  const record = (type: string, text: string) => consoleOut.write(`${new Date().toISOString()} ${type.padEnd(7)} ${text.replace(/\n/g, '\n    ')}\n`);
  let page: Page | null = null;
  let version = 0;
  const waiters = new Set<() => void>();
  const changed = () => {
    version += 1;
    for (const wake of waiters) wake();
    waiters.clear();
  };
  /** Resolves once the change count passes `after`, or after `ms` whatever happened. */
  const changeAfter = (after: number, ms: number) =>
    version > after
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            waiters.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, ms);
          waiters.add(wake);
        });

  async function openPage(url: string): Promise<Page> {
    const p = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    p.on('console', (m) => record(m.type(), m.text()));
    p.on('pageerror', (e) => record('error', `uncaught ${e.name}: ${e.message}`));
    p.on('crash', () => {
      options.log('preview page crashed; the next command opens a new one');
      p.close().catch(() => {});
    });
    p.on('close', () => page === p && (page = null));
    p.on('load', changed);
    await p.exposeBinding('__weirPageChanged', changed);
    await p.addInitScript(CHANGE_OBSERVER);
    await p.goto(url, { waitUntil: 'load' });
    return p;
  }
  // A crashed or closed page is replaced on the next command, on the page's last URL.
  let lastUrl = options.url;
  const current = async (): Promise<Page> => {
    if (!page || page.isClosed()) page = await openPage(lastUrl);
    return page;
  };
  page = await openPage(options.url);

  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: Array<{ type: string; id: number }> };
  const browserPid = processInfo.find((p) => p.type === 'browser')?.id ?? null;

  async function perform(req: WebviewAction): Promise<unknown> {
    checkAction(req as unknown as Record<string, unknown>);
    const p = await current();
    const timeout = 'timeout' in req && req.timeout !== undefined ? req.timeout : DEFAULT_TIMEOUT;
    try {
      switch (req.action) {
        case 'screenshot': {
          if (req.after !== undefined) await changeAfter(req.after, req.wait ?? 0);
          // Read before the capture: a change while it is taken gives a higher count, so the next `after` sees it.
          const shows = version;
          // `caret: 'initial'`: hiding the caret injects a style element, a DOM change that would wake the next `after` at once.
          const png = await p.screenshot({ fullPage: !!req.fullPage, type: 'png', caret: 'initial' });
          return { png: png.toString('base64'), version: shows };
        }
        case 'click':
          await p.click(req.selector, { timeout }).catch((e) => Promise.reject(selectorError(e, req.selector, timeout)));
          return { clicked: req.selector };
        case 'type':
          await p.fill(req.selector, req.text, { timeout }).catch((e) => Promise.reject(selectorError(e, req.selector, timeout)));
          return { typed: req.text.length, selector: req.selector };
        case 'eval':
          try {
            return { result: (await p.evaluate(req.code)) ?? null };
          } catch (e) {
            throw new WeirError('INVALID_INPUT', `eval failed: ${(e as Error).message.replace(/^page\.evaluate: /, '').split('\n')[0]}`);
          }
        case 'url':
          return { url: p.url() };
        case 'nav': {
          const target = new URL(req.url, options.url).href;
          await p.goto(target, { timeout, waitUntil: 'load' }).catch((e) => Promise.reject(new WeirError('PROVIDER', `cannot open ${target}: ${(e as Error).message.split('\n')[0]}`)));
          lastUrl = target;
          return { url: p.url() };
        }
        case 'wait':
          await p.waitForTimeout(req.ms);
          return { waited: req.ms };
      }
    } finally {
      if (!p.isClosed() && p.url().startsWith('http')) lastUrl = p.url();
      // A failed click may still have changed the page; an extra count only costs one refresh.
      if (CHANGING.has(req.action)) changed();
    }
  }

  return {
    browserPid,
    perform,
    async close() {
      await browser.close().catch(() => {});
      await new Promise((r) => consoleOut.end(r));
    },
  };
}
