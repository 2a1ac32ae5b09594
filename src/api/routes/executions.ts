import { workflowToRun } from '../../flow/run.js';
import { RawAnswer, type ApiRoute } from '../define.js';
import type { ApiDeps } from '../deps.js';
import { cutLargeValues, PREVIEW_CHARS, valueDownload } from '../execution-values.js';
import { components, ref } from '../schemas/index.js';
import { executionRef } from './shared.js';

const id = { id: executionRef };
const record = { status: 200, description: 'the execution record', schema: ref('ExecutionRecord') };

/**
 * The workflow id executions are listed by: the draft's or the published copy's id, else the ref itself (a
 * deleted workflow's executions stay listed by its id); `unknown` is the lookup's error when nothing is known by it.
 */
async function workflowIdOf(workflows: ApiDeps['workflows'], ref: string): Promise<{ id: string; known: boolean; unknown?: unknown }> {
  let unknown: unknown;
  const local = await workflows.getLocal(ref).catch((err) => void (unknown = err));
  const known = local?.id ?? (await workflows.findPublished(ref))?.id;
  return known ? { id: known, known: true } : { id: ref, known: false, unknown };
}

/** `/executions`: the paged list, one execution, and its control (cancel, approve, retry, rerun). */
export const executionRoutes = ({ executions, workflows, runtime }: ApiDeps): ApiRoute[] => [
  {
    method: 'GET',
    path: '/executions',
    operationId: 'listExecutions',
    tag: 'executions',
    summary: 'Executions newest first, one page at a time, of one workflow or of all, of one status or of any',
    query: {
      type: 'object',
      properties: {
        workflow: { type: 'string', description: 'a workflow id or name (a deleted workflow: its id)' },
        status: { ...components.ExecutionStatus, description: 'only executions of this status' },
        limit: { type: 'integer', minimum: 1, maximum: 500, description: 'page size (default 20)' },
        cursor: { type: 'string', description: 'the `nextCursor` of the page before' },
        maxValueBytes: { type: 'integer', minimum: 0, description: 'cut values larger than this, as `GET /executions/{id}` does (a list that shows no values passes a small one)' },
      },
    },
    response: { status: 200, description: 'one page', schema: ref('ExecutionPage') },
    async handle({ query }) {
      const workflow = query.workflow === undefined ? undefined : await workflowIdOf(workflows, query.workflow as string);
      const page = await executions.page({ workflowId: workflow?.id, status: query.status as never, limit: query.limit as number | undefined, cursor: query.cursor as string | undefined });
      // Neither a workflow nor the id of a deleted one with executions: the lookup's NOT_FOUND, naming the nearest workflows.
      if (workflow && !workflow.known && !page.items.length && !query.cursor) throw workflow.unknown;
      return query.maxValueBytes === undefined ? page : { ...page, items: page.items.map((r) => cutLargeValues(r, query.maxValueBytes as number)) };
    },
  },
  {
    method: 'GET',
    path: '/executions/:id',
    operationId: 'getExecution',
    tag: 'executions',
    summary: "One execution with each node's output record (`weir workflows execution --json`)",
    description: `With \`maxValueBytes\`, each node's \`data\` and the execution's \`input\` and \`result\` whose JSON is larger than that many bytes is answered as a CutValue (\`{"$cut": true, bytes, preview}\`, the preview being the first ${PREVIEW_CHARS} characters of the JSON); \`GET /executions/{id}/nodes/{nodeId}/data\` answers one whole.`,
    params: id,
    query: {
      type: 'object',
      properties: { maxValueBytes: { type: 'integer', minimum: 0, description: 'cut values whose JSON is larger than this many bytes (the Studio passes 65536)' } },
    },
    response: record,
    async handle({ params, query }) {
      const found = await executions.get(params.id);
      return query.maxValueBytes === undefined ? found : cutLargeValues(found, query.maxValueBytes as number);
    },
  },
  {
    method: 'GET',
    path: '/executions/:id/nodes/:nodeId/data',
    operationId: 'getExecutionNodeData',
    tag: 'executions',
    summary: "One node's whole output data as a JSON download (`$input`, `$result`: the execution's input, result), secrets masked as in the record",
    description: 'Answers with `Content-Disposition: attachment; filename="<execution id>-<node id>.json"`; 404 NOT_FOUND for a node the execution has no record of (naming the nearest).',
    params: { ...id, nodeId: { type: 'string', description: 'A node id of the execution (`http_request-1`), or `$input` / `$result`.' } },
    response: { status: 200, description: "the node's data, as JSON", schema: {} },
    handle: async ({ params }) => new RawAnswer(valueDownload(await executions.get(params.id), params.nodeId)),
  },
  {
    method: 'POST',
    path: '/executions/:id/cancel',
    operationId: 'cancelExecution',
    tag: 'executions',
    summary: 'Cancel a queued, running or waiting execution (409 CONFLICT once it ended)',
    params: id,
    body: { type: 'object', additionalProperties: false, properties: {} },
    response: { ...record, description: 'the cancelled execution' },
    handle: ({ params }) => executions.cancel(params.id),
  },
  {
    method: 'POST',
    path: '/executions/:id/approve',
    operationId: 'approveExecution',
    tag: 'executions',
    summary: 'Approve (or deny, with `approve: false`) the tool call a waiting execution waits for (409 CONFLICT when it waits for no approval)',
    description: "The node that asked (an `agent` node's tool call) runs again with the decision; a denial, with its `reason`, is the tool's result. `weir workflows approve <execution-id> [--deny] [--reason <text>]`.",
    params: id,
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['approve'],
      properties: { approve: { type: 'boolean', description: 'true approves, false denies' }, reason: { type: 'string', description: 'why (reported with a denial)' } },
    },
    response: { status: 200, description: 'the decision', schema: ref('ApprovalAnswer') },
    handle: ({ params, body }) => executions.approve(params.id, { approve: body.approve as boolean, ...(typeof body.reason === 'string' ? { reason: body.reason } : {}) }),
  },
  {
    method: 'POST',
    path: '/executions/:id/retry',
    operationId: 'retryExecution',
    tag: 'executions',
    summary: 'Retry a failed or cancelled execution from its failed node, as a new execution (409 CONFLICT for any other status)',
    description: 'Answers 200 with the new execution record once it ended, whatever its status (as `POST /workflows/{id}/run`).',
    params: id,
    body: { type: 'object', additionalProperties: false, properties: { latest: { type: 'boolean', description: 'run the current config, not the one the execution ran' } } },
    response: { ...record, description: 'the new execution' },
    handle: ({ params, body }) => executions.retry(params.id, { latest: body.latest === true }),
  },
  {
    method: 'POST',
    path: '/executions/:id/rerun',
    operationId: 'rerunExecution',
    tag: 'executions',
    summary: "Run an execution's trigger input (or `input`) again as a new execution, against the published config or the draft",
    description: 'Answers 200 with the new execution record once it ended, whatever its status (as `POST /workflows/{id}/run`).',
    params: id,
    body: {
      type: 'object',
      additionalProperties: false,
      properties: { input: { description: "the input to run with (default: the execution's own)" }, draft: { type: 'boolean', description: 'run the local draft instead of the published config' } },
    },
    response: { ...record, description: 'the new execution' },
    async handle({ params, body }) {
      const draft = body.draft === true;
      if (!('input' in body)) return executions.rerun(params.id, { draft });
      const old = await executions.get(params.id);
      const workflow = await workflowToRun(workflows, old.workflowId, !draft);
      return runtime.run({ workflow, input: body.input, trigger: old.trigger, rerunOf: old.id });
    },
  },
];
