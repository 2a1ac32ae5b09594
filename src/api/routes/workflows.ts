import { workflowToRun } from '../../flow/run.js';
import { configHandles } from '../../nodes/describe.js';
import { requestBase } from '../../host/serve-info.js';
import type { WorkflowConfig } from '../../resources/workflows/types.js';
import { webhookUrlInfo } from '../../triggers/webhook/url-info.js';
import type { ApiRoute } from '../define.js';
import type { ApiDeps } from '../deps.js';
import { ref } from '../schemas/index.js';
import { findFlow, workflowRef } from './shared.js';

const id = { id: workflowRef };
const DAY_MS = 86_400_000;

/** `/workflows`: list (and with activity), create, rename, delete, one workflow, its draft (read and replace), diff, publish, run, webhook URL. */
export const workflowRoutes = ({ workflows, capture, runtime, executions, nodes, home, config }: ApiDeps): ApiRoute[] => [
  {
    method: 'GET',
    path: '/workflows',
    operationId: 'listWorkflows',
    tag: 'workflows',
    summary: 'Every workflow with its sync status (`weir workflows list --json`)',
    response: { status: 200, description: 'the workflows, by name', schema: { type: 'array', items: ref('WorkflowSummary') } },
    handle: () => workflows.list(),
  },
  {
    // Before `/workflows/:id`, which would take `overview` for a workflow's name.
    method: 'GET',
    path: '/workflows/overview',
    operationId: 'workflowsOverview',
    tag: 'workflows',
    summary: 'Every workflow with its newest execution and its errors of the last 24 hours',
    description: 'Fast however many executions are stored: the errors are counted from the status tallies the execution batches carry in their keys, so few records are read.',
    response: { status: 200, description: 'the workflows, by name', schema: { type: 'array', items: ref('WorkflowOverview') } },
    async handle() {
      const since = Date.now() - DAY_MS;
      return Promise.all(
        (await workflows.list()).map(async (wf) => {
          const { last, errorsSince } = await executions.activity(wf.id, since);
          const lastExecution = last && { id: last.id, status: last.status, startedAt: last.startedAt, finishedAt: last.finishedAt };
          return { ...wf, lastExecution, errors24h: errorsSince };
        }),
      );
    },
  },
  {
    method: 'POST',
    path: '/workflows',
    operationId: 'createWorkflow',
    tag: 'workflows',
    summary: 'Create a workflow: a manual trigger, or a template\'s flow (`weir workflows create`); 409 EXISTS when the name is taken',
    body: {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: {
        name: { type: 'string', description: 'unique among the workflows' },
        description: { type: 'string' },
        template: { type: 'string', description: 'start from this template (`GET /templates`); unknown: 404 naming the nearest' },
      },
    },
    response: { status: 201, description: 'the new draft', schema: ref('WorkflowSummary') },
    async handle({ body }) {
      const created = await workflows.create(body.name, body.description, { template: body.template });
      return workflows.status(created.id);
    },
  },
  {
    method: 'GET',
    path: '/workflows/:id',
    operationId: 'getWorkflow',
    tag: 'workflows',
    summary: 'One workflow: summary, draft config, published copy, accepted webhook format (`weir workflows get --json`)',
    params: id,
    response: { status: 200, description: 'the workflow', schema: ref('WorkflowDetails') },
    async handle({ params }) {
      const wf = await workflows.get(params.id);
      const format = await capture.format(wf.id);
      return { ...wf, webhookFormat: format && { schema: format.schema, variables: format.variables, confirmedAt: format.confirmedAt } };
    },
  },
  {
    method: 'PATCH',
    path: '/workflows/:id',
    operationId: 'updateWorkflow',
    tag: 'workflows',
    summary: 'Rename a workflow or change its description (409 EXISTS when the new name is taken); the published copy takes them at the next publish',
    params: id,
    body: {
      type: 'object',
      additionalProperties: false,
      properties: { name: { type: 'string', description: 'the new name' }, description: { type: 'string', description: 'the new description (`""` removes it)' } },
    },
    response: { status: 200, description: 'the workflow with its sync status', schema: ref('WorkflowSummary') },
    handle: ({ params, body }) => workflows.update(params.id, { name: body.name, description: body.description }),
  },
  {
    method: 'DELETE',
    path: '/workflows/:id',
    operationId: 'deleteWorkflow',
    tag: 'workflows',
    summary: 'Delete the local draft (`weir workflows delete`); `unpublish=true` removes the published copy too (its webhook then answers 404)',
    params: id,
    query: { type: 'object', properties: { unpublish: { type: 'boolean', description: 'also remove the published copy' } } },
    response: { status: 200, description: 'what was deleted', schema: ref('DeletedWorkflow') },
    handle: ({ params, query }) => workflows.delete(params.id, { unpublish: query.unpublish === true }),
  },
  {
    method: 'GET',
    path: '/workflows/:id/webhook',
    operationId: 'getWebhook',
    tag: 'workflows',
    summary: 'The webhook URL and whether it is live (`weir workflows webhook-url --json`)',
    params: id,
    response: { status: 200, description: 'the URL and its flags', schema: ref('WebhookInfo') },
    async handle({ params, req }) {
      const base = requestBase(req, home, config.publicUrl);
      const { webhookTriggerEnabled: live, notLive, ...info } = await webhookUrlInfo({ capture, nodes }, await findFlow(workflows, params.id), base);
      return { ...info, live, ...(notLive ? { reason: notLive } : {}), enabled: live };
    },
  },
  {
    method: 'GET',
    path: '/workflows/:id/draft',
    operationId: 'getDraft',
    tag: 'workflows',
    summary: 'The local draft: the config `publish` would publish',
    params: id,
    response: { status: 200, description: 'the draft', schema: ref('Draft') },
    async handle({ params }) {
      const [draft, status] = await Promise.all([workflows.getLocal(params.id), workflows.status(params.id)]);
      return { id: draft.id, name: draft.name, status: status.status, localVersion: status.localVersion, config: draft.config, updatedAt: draft.updatedAt };
    },
  },
  {
    method: 'PUT',
    path: '/workflows/:id/draft',
    operationId: 'saveDraft',
    tag: 'workflows',
    summary: 'Replace the draft config, validated like `weir workflows save` (400 INVALID_CONFIG, every problem in `error.details`)',
    params: id,
    // No shape checked here: `save` checks any JSON itself, so the answer is the same as the CLI's (every problem listed).
    body: { description: 'The workflow config (nodes, edges, variables, metadata): see the WorkflowConfig schema.' },
    response: { status: 200, description: 'the saved draft with its sync status (`weir workflows save --json`)', schema: ref('WorkflowSummary') },
    handle: ({ params, body }) => workflows.save(params.id, body as WorkflowConfig),
  },
  {
    method: 'POST',
    path: '/workflows/validate',
    operationId: 'validateWorkflow',
    tag: 'workflows',
    summary: 'Check a workflow config as `save` would, saving nothing: the Studio checks as the user edits',
    description: 'Answers 200 with every problem `PUT /workflows/{id}/draft` would refuse the config for (none: it would save).',
    // Any JSON, as for saveDraft: the answer lists what is wrong with it rather than refusing it.
    body: { description: 'The workflow config (nodes, edges, variables, metadata): see the WorkflowConfig schema.' },
    response: {
      status: 200,
      description: 'the problems, [] when the config would save; and the handles of each node whose handles come from its config (a switch), as an editor draws them',
      schema: {
        type: 'object',
        required: ['problems', 'handles'],
        properties: {
          problems: { type: 'array', items: ref('Problem') },
          handles: { type: 'object', description: 'node id -> its outgoing handles, for the nodes whose type says `handles.dynamic`', additionalProperties: { type: 'array', items: { type: 'string' } } },
        },
      },
    },
    handle: async ({ body }) => ({ problems: workflows.validate(body), handles: configHandles(body, nodes) }),
  },
  {
    method: 'GET',
    path: '/workflows/:id/diff',
    operationId: 'diffWorkflow',
    tag: 'workflows',
    summary: 'Changes from the published config to the draft (`weir workflows diff --json`)',
    params: id,
    response: { status: 200, description: 'the changes and a unified diff', schema: ref('Diff') },
    handle: ({ params }) => workflows.diff(params.id),
  },
  {
    method: 'POST',
    path: '/workflows/:id/publish',
    operationId: 'publishWorkflow',
    tag: 'workflows',
    summary: 'Publish the draft; refused in conflict (409) unless `force`',
    params: id,
    body: { type: 'object', additionalProperties: false, properties: { force: { type: 'boolean', description: 'publish even in conflict, overwriting the newer published version' } } },
    response: { status: 200, description: 'the new published version (`weir workflows publish --json`)', schema: ref('Published') },
    handle: ({ params, body }) => workflows.publish(params.id, { force: body.force === true }),
  },
  {
    method: 'POST',
    path: '/workflows/:id/run',
    operationId: 'runWorkflow',
    tag: 'workflows',
    summary: 'Run the workflow (its draft, or its published copy) with an input and answer the execution record once it ends or waits',
    description:
      'Answers 200 with the execution record whatever the flow did: a failed flow is a run that happened, so its record (status `error`, `error`) is the answer, not an error document. Error documents are for requests that ran nothing (unknown workflow, invalid request). The input is what the trigger receives: for a webhook flow, `{body, headers, query, method}`.',
    params: id,
    body: {
      type: 'object',
      additionalProperties: false,
      properties: {
        input: { description: "The trigger's input (default `{}`)." },
        published: { type: 'boolean', description: 'run the published copy instead of the draft' },
      },
    },
    response: { status: 200, description: 'the execution record (any status)', schema: ref('ExecutionRecord') },
    async handle({ params, body }) {
      const workflow = await workflowToRun(workflows, params.id, body.published === true);
      return runtime.run({ workflow, input: body.input ?? {}, trigger: 'manual' });
    },
  },
];
