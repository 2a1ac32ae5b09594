import { WeirError } from '../../errors.js';
import { isTemplate } from '../../nodes/fields.js';
import type { LocalWorkflow, PublishedWorkflow, WorkflowConfig } from './types.js';

/** The node types that run a published flow by the name or id in their `flow` (each run its own execution). */
const CALLERS = new Set(['call_flow', 'foreach']);

interface Flow {
  id: string;
  name: string;
  config: WorkflowConfig;
}

/** A call of one flow to another: the node that makes it (and its index in the caller's nodes) and the flow it runs. */
interface Call {
  node: string;
  index: number;
  to: string;
}

/** The refs a config's `call_flow` and `foreach` nodes run (one given by an expression is known only when it runs). */
const refsOf = (config: WorkflowConfig) =>
  config.nodes.flatMap((node, index) => {
    const ref = CALLERS.has(node.type) ? node.config?.flow : undefined;
    return typeof ref === 'string' && !isTemplate(ref) ? [{ node: node.id, index, ref }] : [];
  });

const keylessLimit = (config: WorkflowConfig) => {
  const limit = config.settings?.concurrency;
  return limit && limit.key === undefined ? limit.limit : null;
};

/**
 * Refuses (INVALID_CONFIG, exit 1) to publish a flow that runs itself, directly or through the published
 * flows it calls (a `call_flow` or `foreach` naming it: A -> A, or A -> B -> A), when a flow of that loop has
 * a concurrency limit without a key: each call waits for a slot of that flow while a caller up the chain holds
 * one, so once the callers hold them all (one run at limit 1), the calls wait forever. With a key, a call may
 * take another key's slot, so it is left to the flow. The other flows are followed in their published copies:
 * those are what a call runs.
 * @example
 * await checkCallCycle(wf, findPublished) // throws INVALID_CONFIG when call_flow-2 names wf itself under settings.concurrency {limit: 1}
 */
export async function checkCallCycle(wf: LocalWorkflow, published: (ref: string) => Promise<PublishedWorkflow | null>): Promise<void> {
  const self: Flow = { id: wf.id, name: wf.name, config: wf.config };
  // Every flow this one runs, directly or not, with its calls.
  const flows = new Map<string, Flow>([[self.id, self]]);
  const calls = new Map<string, Call[]>();
  for (const queue = [self]; queue.length; ) {
    const flow = queue.shift()!;
    const out: Call[] = [];
    for (const { node, index, ref } of refsOf(flow.config)) {
      const target = ref === self.id || ref === self.name ? self : await published(ref);
      if (!target) continue;
      out.push({ node, index, to: target.id });
      if (!flows.has(target.id)) {
        flows.set(target.id, target);
        queue.push(target);
      }
    }
    calls.set(flow.id, out);
  }
  // Of those, the ones that run this flow again: each is on a loop through it (this flow too, when it is on one).
  const loop = new Set<string>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const [id, out] of calls) {
      if (loop.has(id) || !out.some((c) => c.to === self.id || loop.has(c.to))) continue;
      loop.add(id);
      grew = true;
    }
  }
  const limited = [...loop].map((id) => flows.get(id)!).filter((f) => keylessLimit(f.config) !== null);
  if (!limited.length) return;
  const details = calls.get(self.id)!.flatMap((call) => {
    if (!loop.has(call.to)) return [];
    return [{ path: `nodes[${call.index}].config.flow`, message: loopMessage(call, pathBack(call.to, self.id, calls, loop).map((id) => flows.get(id)!), limited, self) }];
  });
  throw new WeirError('INVALID_CONFIG', `cannot publish "${wf.name}": ${details.map((d) => d.message).join('; ')}`, {
    details,
    hints: ['move the part that repeats into a flow of its own and call that one (its runs count against its own limit), or give settings.concurrency a key that the call\'s input changes'],
  });
}

/** The flows a shortest chain of calls from `from` back to `home` goes through (`from` first, `home` left out). */
function pathBack(from: string, home: string, calls: Map<string, Call[]>, loop: Set<string>): string[] {
  const before = new Map<string, string | null>([[from, null]]);
  for (const queue = [from]; queue.length; ) {
    const id = queue.shift()!;
    if (id === home) break;
    for (const { to } of calls.get(id) ?? []) {
      if (loop.has(to) && !before.has(to)) {
        before.set(to, id);
        queue.push(to);
      }
    }
  }
  const path: string[] = [];
  for (let id = before.get(home) ?? null; id !== null; id = before.get(id) ?? null) path.unshift(id);
  return path;
}

/** Why one call of the flow is refused: the loop it closes and the limits that count its callers. */
function loopMessage(call: Call, through: Flow[], limited: Flow[], self: Flow): string {
  const wait = 'the call would wait for a slot they hold, forever once they hold them all';
  if (!through.length && limited.length === 1 && limited[0] === self) {
    return `${call.node} runs this flow, whose concurrency limit ${keylessLimit(self.config)} counts its callers: ${wait}`;
  }
  const loop = through.length ? `${call.node} runs this flow again through ${through.map((f) => `"${f.name}"`).join(' -> ')}` : `${call.node} runs this flow`;
  const limits = limited.map((f) => `${f === self ? 'this flow' : `"${f.name}"`} (limit ${keylessLimit(f.config)})`).join(', ');
  return `${loop}; ${limits} ${limited.length === 1 ? 'has a concurrency limit' : 'have concurrency limits'} without a key, counting the callers: ${wait}`;
}
