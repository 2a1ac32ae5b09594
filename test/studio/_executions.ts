// Shared setup of the Studio's executions tests: flows published through the library and calls of the
// management API with the host token, as another client of the same host would make them.
import type { Weir } from '../../src/weir.js';
import { chain, publish } from '../host/_helpers.js';

/** A JSON call to the host's management API with its token; answers the status and the parsed body. */
export async function callApi(host: { url: string; token: string }, method: string, path: string, body?: unknown) {
  const res = await fetch(`${host.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${host.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

/** Publishes a flow of nodes chained after its trigger (`<type>-<n>` ids unless given). */
export const publishChain = (weir: Weir, name: string, trigger: string, nodes: Array<{ type: string; id?: string; config?: Record<string, unknown> }>) =>
  publish(weir, name, { type: trigger }, ...(Object.values(chain(trigger, nodes)) as [any[], any[]]));

/**
 * `orders` (webhook): waits `ms`, then a Code node charges `$input.body.amount`, failing with "card declined"
 * when the body says `fail`.
 */
export const publishOrders = (weir: Weir, ms = 2500) =>
  publishChain(weir, 'orders', 'webhook_trigger', [
    { type: 'delay', id: 'delay-1', config: { ms } },
    { type: 'code', id: 'code-1', config: { code: "if ($input.body.fail) throw new Error('card declined: ' + $input.body.card); return { charged: $input.body.amount }" } },
  ]);
