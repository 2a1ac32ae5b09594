import { describeNodeTypes } from '../../nodes/describe.js';
import { workflowSchema } from '../../nodes/schema.js';
import { templateTrigger, templates } from '../../resources/workflows/templates/index.js';
import type { ApiRoute } from '../define.js';
import type { ApiDeps } from '../deps.js';
import { ref } from '../schemas/index.js';

/** `/templates`, `/node-types` and `/workflow-schema`: what a flow can start from and be made of, on this instance. */
export const catalogRoutes = ({ nodes }: ApiDeps): ApiRoute[] => [
  {
    method: 'GET',
    path: '/templates',
    operationId: 'listTemplates',
    tag: 'catalog',
    summary: 'The templates a new workflow can start from (`weir workflows templates --json`)',
    response: { status: 200, description: 'the templates', schema: { type: 'array', items: ref('Template') } },
    handle: async () => templates.map((t) => ({ name: t.name, description: t.summary, trigger: templateTrigger(t) })),
  },
  {
    method: 'GET',
    path: '/node-types',
    operationId: 'listNodeTypes',
    tag: 'catalog',
    summary: "Every node type of this instance, built-in and its own, with its config schema, handles, docs and an example config (`weir nodes <type> --json`)",
    response: { status: 200, description: 'the node types, triggers first', schema: { type: 'array', items: ref('NodeType') } },
    handle: async () => describeNodeTypes(nodes),
  },
  {
    method: 'GET',
    path: '/workflow-schema',
    operationId: 'getWorkflowSchema',
    tag: 'catalog',
    summary: "The JSON schema of a flow file on this instance (schema/workflow.schema.json with this instance's own node types): nodes, edges and `settings`",
    response: { status: 200, description: 'a JSON schema (draft 2020-12)', schema: { type: 'object' } },
    handle: async () => workflowSchema(nodes),
  },
];
