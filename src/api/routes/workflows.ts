import { workflowToRun } from '../../flow/run.js';
import type { WorkflowConfig } from '../../resources/workflows/types.js';
import type { ApiRoute } from '../define.js';
import type { ApiDeps } from '../deps.js';
import { ref } from '../schemas.js';
import { workflowRef } from './shared.js';

const id = { id: workflowRef };

/** `/workflows`: list, one workflow, its draft (read and replace), diff, publish, run. */
export const workflowRoutes = ({ workflows, capture, executor }: ApiDeps): ApiRoute[] => [
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
      return executor.run({ workflow, input: body.input ?? {}, trigger: 'manual' });
    },
  },
];
