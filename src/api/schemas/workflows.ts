import type { JsonSchema } from '../../util/json-schema.js';
import { anyValue, nullable, ref, string, time } from './common.js';

/** A flow as lists show it (`weir workflows list --json`); the overview adds to it. */
const summary = {
  required: ['id', 'name', 'status', 'trigger', 'localVersion', 'publishedVersion', 'updatedAt'],
  properties: {
    id: string,
    name: string,
    description: string,
    status: ref('SyncStatus'),
    trigger: nullable(string),
    localVersion: nullable({ type: 'integer' }),
    publishedVersion: nullable({ type: 'integer' }),
    updatedAt: time,
  },
};

/** Flows: their summaries, details, drafts, published copies and diffs, node types, templates, webhooks and capture. */
export const workflowSchemas = {
  SyncStatus: { type: 'string', enum: ['draft', 'synced', 'dirty', 'conflict'] },
  WorkflowSummary: { type: 'object', required: summary.required, properties: summary.properties },
  WorkflowOverview: {
    type: 'object',
    description: "A workflow's summary with its newest execution and how many of its executions that started in the last 24 hours failed.",
    required: [...summary.required, 'lastExecution', 'errors24h'],
    properties: {
      ...summary.properties,
      lastExecution: nullable({
        type: 'object',
        required: ['id', 'status', 'startedAt', 'finishedAt'],
        properties: { id: string, status: ref('ExecutionStatus'), startedAt: time, finishedAt: nullable(time) },
      }),
      errors24h: { type: 'integer', minimum: 0 },
    },
  },
  DeletedWorkflow: {
    type: 'object',
    description: '`weir workflows delete --json`.',
    required: ['id', 'deleted', 'unpublished'],
    properties: { id: string, deleted: { const: true }, unpublished: { type: 'boolean', description: 'the published copy was removed too' } },
  },
  Template: {
    type: 'object',
    description: 'A template `POST /workflows` (`template`) starts from (`weir workflows templates --json`).',
    required: ['name', 'description', 'trigger'],
    properties: { name: string, description: string, trigger: { type: 'string', description: 'the type of its trigger node' } },
  },
  NodeType: {
    type: 'object',
    description: "A node type of this instance (built-in or registered with `createWeir({nodes})`), from its definition: what the Studio's palette and config forms show.",
    required: ['type', 'title', 'description', 'trigger', 'config', 'handles', 'docs', 'example'],
    properties: {
      type: string,
      title: { type: 'string', description: "the definition's `title`, else the type in words" },
      description: { type: 'string', description: 'one sentence: what it does (`docs.summary`)' },
      category: { type: 'string', description: "the definition's `category`, when it gives one" },
      trigger: { type: 'boolean' },
      config: nullable({ type: 'object', description: 'the JSON schema save checks its config against (with `retry`, `timeoutMs`, `onError`); null when it declares none' }),
      handles: {
        type: 'object',
        description: '`main` is the plain input or output: an edge leaving a node that does not branch carries no `sourceHandle`; one leaving a branching node carries one of `outputs`.',
        required: ['inputs', 'outputs'],
        properties: {
          inputs: { type: 'array', items: string, description: '`[]` for a trigger, else `["main"]`' },
          outputs: { type: 'array', items: string, description: 'the branches (`["true", "false"]`), or `["main"]`' },
          dynamic: { const: true, description: 'the branches depend on the config: `outputs` are those of `example`' },
        },
      },
      docs: nullable({ type: 'object', required: ['summary', 'output'], properties: { summary: string, output: { type: 'string', description: 'what its output `data` holds' } } }),
      example: { description: 'a config that saves as it is (null: none given)' },
    },
  },
  WebhookInfo: {
    type: 'object',
    description: "A workflow's webhook URL and its flags (`weir workflows webhook-url --json`).",
    required: ['id', 'name', 'url', 'token', 'live', 'formatConfirmed', 'enabled', 'variables', 'publishedTrigger'],
    properties: {
      id: string,
      name: string,
      url: { type: 'string', description: "`<the host's public URL>/trigger/<token>`" },
      token: { type: 'string', description: 'the token of the URL; it never changes' },
      live: { type: 'boolean', description: 'the URL runs the flow: its published copy has a webhook trigger (else it answers 404)' },
      reason: { type: 'string', description: 'when not live: why, and what makes it live' },
      formatConfirmed: { type: 'boolean', description: 'a webhook format was accepted (capture/accept)' },
      enabled: { type: 'boolean', description: 'Webhook Trigger Enabled: the published trigger is `webhook_trigger` (the same as `live`)' },
      variables: { type: 'array', items: string, description: "the accepted format's variable paths" },
      publishedTrigger: nullable({ type: 'string', description: "the published copy's trigger type (null: not published)" }),
    },
  },
  WorkflowConfig: {
    type: 'object',
    description: 'A flow: one trigger node, the other nodes, the edges between them (docs/flows.md).',
    required: ['nodes', 'edges'],
    properties: {
      nodes: { type: 'array', items: { type: 'object', required: ['id', 'type'], properties: { id: string, type: string, label: string, config: { type: 'object' } } } },
      edges: { type: 'array', items: { type: 'object', required: ['source', 'target'], properties: { id: string, source: string, target: string, sourceHandle: string } } },
      variables: { type: 'object' },
      metadata: { type: 'object' },
    },
  },
  WebhookFormat: {
    type: 'object',
    description: 'The accepted webhook format (`webhook-accept`): the schema of the payload and its variable paths.',
    required: ['schema', 'variables', 'confirmedAt'],
    properties: { schema: { type: 'object' }, variables: { type: 'array', items: string }, confirmedAt: time },
  },
  WorkflowDetails: {
    type: 'object',
    description: '`weir workflows get --json`: the summary, the draft config, the published copy, the accepted webhook format and the flows naming it as their error flow.',
    required: ['id', 'name', 'status', 'webhookToken', 'config', 'published', 'webhookFormat', 'createdAt', 'errorFlowFor'],
    properties: {
      id: string,
      name: string,
      status: ref('SyncStatus'),
      webhookToken: string,
      config: ref('WorkflowConfig'),
      published: nullable({
        type: 'object',
        required: ['id', 'name', 'config', 'version', 'hash', 'publishedAt'],
        properties: { id: string, name: string, config: ref('WorkflowConfig'), version: { type: 'integer' }, hash: string, publishedAt: time },
      }),
      webhookFormat: nullable(ref('WebhookFormat')),
      createdAt: time,
      errorFlowFor: {
        type: 'array',
        description: 'The flows whose `settings.errorFlow` names this one, by name; `published: false` when only their draft does.',
        items: { type: 'object', required: ['id', 'name', 'published'], properties: { id: string, name: string, published: { type: 'boolean' } } },
      },
    },
  },
  Draft: {
    type: 'object',
    description: 'The local draft of a workflow: what `PUT` of the draft replaces and `publish` publishes.',
    required: ['id', 'name', 'status', 'config', 'updatedAt'],
    properties: { id: string, name: string, status: ref('SyncStatus'), localVersion: nullable({ type: 'integer' }), config: ref('WorkflowConfig'), updatedAt: time },
  },
  Published: {
    type: 'object',
    description: '`weir workflows publish --json`.',
    required: ['id', 'name', 'version', 'status'],
    properties: { id: string, name: string, version: { type: 'integer', minimum: 1 }, status: { const: 'synced' } },
  },
  Diff: {
    type: 'object',
    description: '`weir workflows diff --json`: the changes from the published config to the draft, and a unified diff of their JSON.',
    required: ['id', 'name', 'status', 'changes', 'patch'],
    properties: {
      id: string,
      name: string,
      status: ref('SyncStatus'),
      changes: {
        type: 'array',
        items: {
          type: 'object',
          required: ['kind', 'op', 'key', 'before', 'after'],
          properties: { kind: { enum: ['node', 'edge', 'variable', 'metadata', 'setting'] }, op: { enum: ['added', 'removed', 'changed'] }, key: string, fields: { type: 'array', items: string }, before: anyValue, after: anyValue },
        },
      },
      patch: string,
    },
  },
  CapturedRequest: {
    type: 'object',
    required: ['method', 'headers', 'query', 'body', 'capturedAt'],
    properties: { method: string, headers: { type: 'object' }, query: { type: 'object' }, body: anyValue, capturedAt: time },
  },
  CaptureStatus: {
    type: 'object',
    description: 'A webhook capture session (`webhook-listen`, `webhook-poll`, `webhook-decline --json`).',
    required: ['id', 'state'],
    properties: {
      id: string,
      state: { enum: ['idle', 'listening', 'captured', 'expired'] },
      expiresAt: time,
      secondsLeft: { type: 'integer' },
      request: ref('CapturedRequest'),
      url: { type: 'string', description: 'The webhook URL (answers of `listen`).' },
    },
  },
  AcceptedFormat: {
    type: 'object',
    description: '`weir workflows webhook-accept --json`.',
    required: ['id', 'formatConfirmed', 'variables', 'schema', 'confirmedAt', 'state'],
    properties: { id: string, formatConfirmed: { const: true }, variables: { type: 'array', items: string }, schema: { type: 'object' }, confirmedAt: time, state: { const: 'idle' } },
  },
} satisfies Record<string, JsonSchema>;
