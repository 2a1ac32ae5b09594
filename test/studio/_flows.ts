// Flows for the flow-list tests: one of each sync status, with executions that succeeded and failed.
import { flow } from '../_utils.js';
import type { studioHost } from './_studio.js';

type Host = Awaited<ReturnType<typeof studioHost>>;

/**
 * `orders-to-slack` (webhook, synced, one success), `nightly-cleanup` (manual, synced, two failures — a delay
 * that times out), `signup-form` (webhook, dirty: its draft gained a node since the publish), `new-idea` (a
 * draft never published or run). Returns their ids by name.
 */
export async function seedFlows(host: Host): Promise<Record<string, string>> {
  const { weir } = host;
  const respond = { id: 'respond-1', type: 'respond', config: { body: { ok: true } } };
  const orders = await weir.workflows.create('orders-to-slack', 'Posts each new order to the sales channel', {
    config: flow({ type: 'webhook_trigger' }, [respond], [{ id: 'e1', source: 'webhook_trigger-1', target: 'respond-1' }]) as any,
    publish: true,
  });
  const delay = { id: 'delay-1', type: 'delay', config: { ms: 2000, timeoutMs: 10 } };
  const cleanup = await weir.workflows.create('nightly-cleanup', 'Removes stale carts', {
    config: flow({ type: 'manual_trigger' }, [delay], [{ id: 'e1', source: 'manual_trigger-1', target: 'delay-1' }]) as any,
    publish: true,
  });
  const signup = await weir.workflows.create('signup-form', 'Stores sign-ups from the landing page', { config: flow({ type: 'webhook_trigger' }) as any, publish: true });
  const idea = await weir.workflows.create('new-idea');
  await host.call('POST', `/workflows/${orders.id}/run`, { input: { body: { order: 1 } } });
  await host.call('POST', `/workflows/${cleanup.id}/run`, {});
  await host.call('POST', `/workflows/${cleanup.id}/run`, {});
  const draft = await host.call('GET', `/workflows/${signup.id}/draft`);
  draft.config.nodes.push(respond);
  draft.config.edges.push({ id: 'e1', source: 'webhook_trigger-1', target: 'respond-1' });
  await host.call('PUT', `/workflows/${signup.id}/draft`, draft.config);
  return { 'orders-to-slack': orders.id, 'nightly-cleanup': cleanup.id, 'signup-form': signup.id, 'new-idea': idea.id };
}
