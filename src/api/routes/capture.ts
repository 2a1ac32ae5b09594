import { requestBase } from '../../host/serve-info.js';
import type { ApiRoute } from '../define.js';
import type { ApiDeps } from '../deps.js';
import { ref } from '../schemas/index.js';
import { findFlow, workflowRef } from './shared.js';

const id = { id: workflowRef };

/** `/workflows/:id/capture/*`: the webhook capture session (CONTRACT 6), as `weir workflows webhook-*` drive it. */
export const captureRoutes = (deps: ApiDeps): ApiRoute[] => {
  const { capture, workflows } = deps;
  const step = (name: string, summary: string, schema = ref('CaptureStatus')) => ({
    method: 'POST' as const,
    path: `/workflows/:id/capture/${name}`,
    operationId: `capture${name[0].toUpperCase()}${name.slice(1)}`,
    tag: 'capture',
    summary,
    params: id,
    body: { type: 'object', additionalProperties: false, properties: {} },
    response: { status: 200, description: 'the session', schema },
  });
  return [
    {
      ...step('listen', 'Start a 5-minute window that captures the next request to the webhook URL (`webhook-listen --json`)'),
      async handle({ params, req }) {
        const { flow } = await findFlow(workflows, params.id);
        const status = await capture.listen(flow.id);
        const base = requestBase(req, deps.home, deps.config.publicUrl);
        return { ...status, url: `${base}/trigger/${flow.webhookToken}` };
      },
    },
    {
      ...step('poll', 'The session: time left, or the captured request (`webhook-poll --json`)'),
      handle: async ({ params }) => capture.poll((await findFlow(workflows, params.id)).flow.id),
    },
    {
      ...step('accept', "Accept the captured request's format: its schema and variable paths are saved on the flow (`webhook-accept --json`); 400 RULE when nothing was captured", ref('AcceptedFormat')),
      async handle({ params }) {
        const f = await capture.accept((await findFlow(workflows, params.id)).flow.id);
        return { id: f.id, formatConfirmed: true, variables: f.variables, schema: f.schema, confirmedAt: f.confirmedAt, state: 'idle' };
      },
    },
    {
      ...step('decline', 'Discard the capture or stop listening (`webhook-decline --json`); 400 RULE when idle'),
      handle: async ({ params }) => capture.decline((await findFlow(workflows, params.id)).flow.id),
    },
  ];
};
