import { callerStatus, WeirError } from '../../errors.js';
import { checkInput, type InputParam } from '../input-params.js';
import type { PublishedWorkflow } from '../../resources/workflows/index.js';
import type { NodeRegistry } from '../../nodes/index.js';
import type { Outcome } from '../../types/trigger.js';
import type { Dispatcher } from '../../runtime/dispatch.js';
import type { FlowIndex } from '../../runtime/flow-index.js';
import { httpAnswer } from '../http-answer.js';

/** How long `/api/flows` waits for a flow before answering 504. */
const CALL_TIMEOUT_MS = 30000;

type Nodes = Pick<NodeRegistry, 'get'>;

const triggerOf = (nodes: Nodes, pub: PublishedWorkflow) => pub.config.nodes.find((n) => nodes.get(n.type)?.trigger);

/** Input problems as one INVALID_INPUT error that lists each (answered 400 listing each problem). */
function checked(nodes: Nodes, pub: PublishedWorkflow, input: unknown): void {
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    throw new WeirError('INVALID_INPUT', `the input of flow "${pub.name}" must be a JSON object`, { details: ['input must be a JSON object'] });
  }
  const params = triggerOf(nodes, pub)?.config?.inputParams as InputParam[] | undefined;
  const problems = checkInput(params, input);
  if (problems.length) {
    throw new WeirError('INVALID_INPUT', `invalid input for flow "${pub.name}": ${problems.join('; ')}`, { details: problems });
  }
}

/** Interface events: `callFlow` from a browser and `executeFlow` for server-side callers. */
export interface InterfaceEvents {
  /** Runs a published flow with checked input and returns its result; a failed run throws its error. */
  executeFlow(ref: string, input?: unknown): Promise<unknown>;
  /** The HTTP answer of `POST /api/flows/<ref>`: `{result}` with the Respond node's status when one ran. */
  call(ref: string, input: unknown): Promise<Outcome>;
}

const wrap = (result: unknown) => ({ result: result ?? null });

/**
 * Interface events: `callFlow` from a browser through `POST /api/flows/<name-or-id>`
 * (only flows whose published trigger is `interface_event_trigger`), and `executeFlow` for server-side
 * callers (any published flow). Inputs are checked against the trigger's `inputParams` first.
 * @example
 * const events = createInterfaceEvents({ nodes, dispatcher, index })
 * const result = await events.executeFlow('quote', { amount: 3 })
 */
export function createInterfaceEvents(options: { nodes: Nodes; dispatcher: Dispatcher; index: FlowIndex; exposeErrors?: boolean }): InterfaceEvents {
  const { nodes, dispatcher, index } = options;

  async function requirePublished(ref: string, interfaceOnly: boolean): Promise<PublishedWorkflow> {
    const pub = await index.published(ref);
    if (!pub || (interfaceOnly && triggerOf(nodes, pub)?.type !== 'interface_event_trigger')) {
      throw new WeirError('NOT_FOUND', `no published interface flow "${ref}"`, { hints: ['publish a flow whose trigger is interface_event_trigger'] });
    }
    return pub;
  }

  return {
    async executeFlow(ref, input = {}) {
      const pub = await requirePublished(ref, false);
      checked(nodes, pub, input);
      const record = await dispatcher.run({ flow: pub, input, trigger: 'interface' });
      if (record.status === 'success') return record.result;
      // Server-side code is the operator's own: it gets the record's error whole, not a caller's answer.
      const error = record.error ?? {};
      const code = error.code ?? (record.status === 'cancelled' ? 'CANCELLED' : 'EXECUTION_FAILED');
      throw new WeirError('EXECUTION_FAILED', error.message ?? `execution ${record.status}`, { status: callerStatus(error) ?? 500, details: { executionId: record.id, code, status: record.status } });
    },

    async call(ref, input) {
      const pub = await requirePublished(ref, true);
      checked(nodes, pub, input);
      return httpAnswer(await dispatcher.answer({ flow: pub, input, trigger: 'interface' }, { timeoutMs: CALL_TIMEOUT_MS }), { wrap, exposeErrors: options.exposeErrors });
    },
  };
}

