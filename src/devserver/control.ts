import { CODES, WeirError, type ErrorCode } from '../errors.js';
import { requireServer } from './registry.js';
import type { WebviewAction } from './webview.js';

/**
 * Sends one action to the webview of a running preview (by interface name or id) and returns its answer.
 * Errors the preview reports (a selector that matches nothing, a failing eval) come back as WeirErrors.
 * @example
 * await callWebview(home, 'shop', { action: 'click', selector: '#send' })
 * const { result } = await callWebview(home, 'shop', { action: 'eval', code: 'document.title' })
 */
export async function callWebview(home: string, ref: string, action: WebviewAction): Promise<any> {
  const server = await requireServer(home, ref);
  // The preview enforces the action's own timeout; this only guards against a hung process.
  const waits = ('ms' in action ? action.ms : 0) + ('wait' in action && action.wait ? action.wait : 0);
  const budget = waits + ('timeout' in action && action.timeout ? action.timeout : 5000) + 30_000;
  let res: Response;
  try {
    res = await fetch(new URL('/__weir/webview', server.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${server.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify(action),
      signal: AbortSignal.timeout(budget),
    });
  } catch (err) {
    throw new WeirError('UNAVAILABLE', `the preview of "${server.interface}" does not answer at ${server.url}: ${(err as Error).message}`, {
      hints: [`restart it: \`weir preview ${server.interface} --stop\`, then \`weir preview ${server.interface}\``],
    });
  }
  const body = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string; details?: unknown } } | null;
  if (res.ok) return body;
  const code = (body?.error?.code && body.error.code in CODES ? body.error.code : 'INTERNAL') as ErrorCode;
  throw new WeirError(code, body?.error?.message ?? `the preview answered HTTP ${res.status}`, { details: body?.error?.details });
}
