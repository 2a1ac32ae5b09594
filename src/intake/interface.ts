import { WeirError } from '../errors.js';
import type { Route } from '../host/types.js';
import { requestBody } from '../host/request-body.js';
import { checkInput, type InputParam } from '../nodes/triggers/input-params.js';
import type { PublishedWorkflow } from '../resources/workflows/index.js';
import type { Weir } from '../weir.js';
import { toResponse, type Answer } from './dedupe.js';
import { executionAnswer, startExecution, waitForAnswer } from './execute.js';
import type { FlowIndex } from './flow-index.js';
import type { Runner } from './runner.js';

/** How long `/api/flows` waits for a flow before answering 504. */
const CALL_TIMEOUT_MS = 30000;

const triggerOf = (weir: Weir, pub: PublishedWorkflow) => pub.config.nodes.find((n) => weir.nodes.get(n.type)?.trigger);

/** Input problems as one INVALID_INPUT error that lists each (CONTRACT 5: 400 listing each problem). */
function checked(weir: Weir, pub: PublishedWorkflow, input: unknown): void {
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    throw new WeirError('INVALID_INPUT', `the input of flow "${pub.name}" must be a JSON object`, { details: ['input must be a JSON object'] });
  }
  const params = triggerOf(weir, pub)?.config?.inputParams as InputParam[] | undefined;
  const problems = checkInput(params, input);
  if (problems.length) {
    throw new WeirError('INVALID_INPUT', `invalid input for flow "${pub.name}": ${problems.join('; ')}`, { details: problems });
  }
}

/**
 * Interface events (seed 2.3, CONTRACT 5): `callFlow` from a browser through `POST /api/flows/<name-or-id>`
 * (only flows whose published trigger is `interface_event_trigger`), and `executeFlow` for server-side
 * callers (any published flow). Inputs are checked against the trigger's `inputParams` first.
 * @example
 * const events = createInterfaceEvents({ weir, runner, index })
 * const result = await events.executeFlow('quote', { amount: 3 })
 */
export function createInterfaceEvents(options: { weir: Weir; runner: Runner; index: FlowIndex }) {
  const { weir, runner, index } = options;

  async function requirePublished(ref: string, interfaceOnly: boolean): Promise<PublishedWorkflow> {
    const pub = await index.published(ref);
    if (!pub || (interfaceOnly && triggerOf(weir, pub)?.type !== 'interface_event_trigger')) {
      throw new WeirError('NOT_FOUND', `no published interface flow "${ref}"`, { hints: ['publish a flow whose trigger is interface_event_trigger'] });
    }
    return pub;
  }

  return {
    /** Runs a published flow with checked input and returns its result; a failed run throws its error. */
    async executeFlow(ref: string, input: unknown = {}): Promise<unknown> {
      const pub = await requirePublished(ref, false);
      checked(weir, pub, input);
      const record = await runner.run(() => startExecution(weir, { workflow: pub, input, trigger: 'interface' }));
      const answer = executionAnswer(record);
      if (record.status === 'success') return record.result;
      const error = (answer.body as { error: { code: string; message: string } }).error;
      throw new WeirError('EXECUTION_FAILED', error.message, { status: answer.status, details: { executionId: record.id, code: error.code } });
    },

    /** The HTTP answer of `POST /api/flows/<ref>`: `{result}` with the Respond node's status when one ran. */
    async call(ref: string, input: unknown): Promise<Answer> {
      const pub = await requirePublished(ref, true);
      checked(weir, pub, input);
      return waitForAnswer(weir, runner, { workflow: pub, input, trigger: 'interface', timeoutMs: CALL_TIMEOUT_MS, wrap: (result) => ({ result: result ?? null }) });
    },
  };
}

/** `POST /api/flows/:ref`: a JSON body is the input (an empty body is `{}`). */
export const interfaceEventRoutes: Route[] = [
  {
    methods: ['POST'],
    path: '/api/flows/:ref',
    async handle(req, params, weir) {
      const input = (await requestBody(req, req.headers['content-type'] ?? 'application/json')).value;
      return toResponse(await weir.intake.events.call(params.ref, input));
    },
  },
];
