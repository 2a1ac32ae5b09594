// Shared setup of the Studio tests: a host on a fresh home served over loopback, and a real headless Chromium
// (Debian's, driven by playwright-core) on the page, collecting console errors and saving screenshots.
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startHost } from '../host/_helpers.js';

const CHROMIUM = process.env.WEIR_CHROMIUM || '/usr/bin/chromium';
/** Where the tests save their screenshots (docs/studio.md shows copies of them). */
export const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

/**
 * A host for the Studio: `startHost`'s, with its access token, the path weir is mounted at (`base`: `''`, or
 * the `prefix` option normalised), and `call` for the management API with the token as a bearer.
 */
export async function studioHost(options: Parameters<typeof startHost>[0] = {}) {
  const host = await startHost(options);
  const token = await host.weir.interfaces.accessToken();
  const base = options.prefix ? `/${options.prefix.replace(/^\/+|\/+$/g, '')}` : '';
  async function call<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${host.url}${base}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json();
    assert.ok(res.ok, `${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
    return json;
  }
  return { ...host, token, base, call };
}

/**
 * A browser for one test file; `open` signs a page in with `?token=` and records what its console says.
 * Chromium starts at the first `open`: uvu loads every test file (running its top-level code) before it runs
 * any test, so a browser started here would stay open through the whole suite.
 */
export async function studioBrowser() {
  assert.ok(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}: run .ci/install-chromium.sh (or set WEIR_CHROMIUM)`);
  mkdirSync(SHOTS, { recursive: true });
  let launched: Promise<Browser> | undefined;
  const browser = () => (launched ??= chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] }));
  const errors: string[] = [];
  return {
    /** Console errors and uncaught exceptions of every page opened, in order. */
    errors,
    /**
     * A new page on `<url><base>/studio/?token=`, once the app has drawn its sections; `init` runs in the page
     * before its own scripts (to measure it).
     */
    async open(host: { url: string; token: string; base?: string }, hash = '#/flows', options: { init?: () => void } = {}): Promise<Page> {
      const context = await (await browser()).newContext({ viewport: { width: 1400, height: 860 }, permissions: ['clipboard-read', 'clipboard-write'] });
      const page = await context.newPage();
      page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      if (options.init) await page.addInitScript(options.init);
      await page.goto(`${host.url}${host.base ?? ''}/studio/?token=${host.token}`);
      await page.waitForSelector('nav.sidebar');
      if (hash) await page.evaluate((h) => (location.hash = h), hash);
      return page;
    },
    /** Saves a screenshot as test/studio/screenshots/<name>.png. */
    shot: (page: Page, name: string) => page.screenshot({ path: `${SHOTS}${name}.png` }),
    close: async () => (launched ? (await launched).close() : undefined),
  };
}
