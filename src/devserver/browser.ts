import { existsSync } from 'node:fs';
import { WeirError } from '../errors.js';

/** Where Debian, Ubuntu and Chrome put their browsers; `WEIR_CHROMIUM` overrides. */
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

/** Flags for a quiet headless browser in containers and CI (no sandbox: often no user namespaces there). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The Chromium binary previews use: `WEIR_CHROMIUM`, else the first system browser found. weir never
 * downloads one.
 * @example
 * const bin = findChromium(process.env)   // '/usr/bin/chromium'
 */
export function findChromium(env: NodeJS.ProcessEnv): string {
  const given = env.WEIR_CHROMIUM;
  if (given) {
    if (existsSync(given)) return given;
    throw new WeirError('UNAVAILABLE', `WEIR_CHROMIUM points to ${given}, which does not exist`);
  }
  const found = CANDIDATES.find((p) => existsSync(p));
  if (found) return found;
  throw new WeirError('UNAVAILABLE', 'Chromium was not found: previews run in a headless Chromium', {
    hints: ['install it (Debian/Ubuntu: `sudo apt-get install chromium`, or run .ci/install-chromium.sh)', 'or set WEIR_CHROMIUM to a Chromium or Chrome binary'],
  });
}
