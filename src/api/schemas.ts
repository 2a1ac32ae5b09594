import type { JsonSchema } from '../util/json-schema.js';

/** A reference to a shared schema of the OpenAPI document. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

const string: JsonSchema = { type: 'string' };
const time: JsonSchema = { type: 'string', format: 'date-time' };
const nullable = (s: JsonSchema): JsonSchema => ({ anyOf: [s, { type: 'null' }] });
/** Any JSON value (a flow's input, result, node data). */
const anyValue: JsonSchema = {};

const errorInfo: JsonSchema = {
  type: 'object',
  required: ['code', 'message'],
  properties: { code: string, message: string, status: { type: 'integer' }, node: string },
};

/**
 * The shared schemas of the management API (`components.schemas` of its OpenAPI document): the error document
 * of every failure, and the records the routes answer with (the `--json` data of the matching CLI commands).
 */
export const components = {
  Error: {
    type: 'object',
    description: 'Every failure: a stable code, a message, for validation failures each problem in `details`, and what to do next in `hints`.',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: string, message: string, details: anyValue, hints: { type: 'array', items: string } },
      },
    },
  },
  Problem: {
    type: 'object',
    description: 'One validation problem: where (`body.input`, `query.limit`, `nodes[1].type`) and what.',
    required: ['path', 'message'],
    properties: { path: string, message: string },
  },
  SyncStatus: { type: 'string', enum: ['draft', 'synced', 'dirty', 'conflict'] },
  WorkflowSummary: {
    type: 'object',
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
    description: '`weir workflows get --json`: the summary, the draft config, the published copy and the accepted webhook format.',
    required: ['id', 'name', 'status', 'webhookToken', 'config', 'published', 'webhookFormat', 'createdAt'],
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
          properties: { kind: { enum: ['node', 'edge', 'variable', 'metadata'] }, op: { enum: ['added', 'removed', 'changed'] }, key: string, fields: { type: 'array', items: string }, before: anyValue, after: anyValue },
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
  ErrorInfo: errorInfo,
  NodeRecord: {
    type: 'object',
    required: ['status', 'startedAt', 'finishedAt'],
    properties: {
      data: anyValue,
      status: { enum: ['success', 'error', 'skipped', 'waiting'] },
      startedAt: nullable(time),
      finishedAt: nullable(time),
      error: ref('ErrorInfo'),
      attempts: { type: 'integer' },
      logs: { type: 'array', items: { type: 'object', required: ['at', 'level', 'message'], properties: { at: time, level: string, message: string, data: anyValue } } },
      handle: string,
      wait: { type: 'object' },
    },
  },
  ExecutionStatus: { type: 'string', enum: ['queued', 'running', 'waiting', 'success', 'error', 'cancelled'] },
  ExecutionRecord: {
    type: 'object',
    description: "One execution with each node's output record, secret values masked (`weir workflows execution --json`).",
    required: ['id', 'workflowId', 'workflowName', 'status', 'trigger', 'nodes', 'startedAt', 'finishedAt'],
    properties: {
      id: string,
      workflowId: string,
      workflowName: string,
      version: nullable({ type: 'integer' }),
      status: ref('ExecutionStatus'),
      trigger: string,
      input: anyValue,
      nodes: { type: 'object', additionalProperties: ref('NodeRecord') },
      result: anyValue,
      error: ref('ErrorInfo'),
      startedAt: time,
      finishedAt: nullable(time),
      attempts: { type: 'integer' },
      resumedAt: time,
      retryOf: string,
      rerunOf: string,
      hash: string,
      draft: { const: true },
    },
  },
  ExecutionPage: {
    type: 'object',
    description: 'One page of executions, newest first; `nextCursor` (null on the last page) fetches the next.',
    required: ['items', 'nextCursor'],
    properties: { items: { type: 'array', items: ref('ExecutionRecord') }, nextCursor: nullable(string) },
  },
  BusEvent: {
    type: 'object',
    description:
      'The data of one server-sent event: `execution:start`, `node:start`, `node:end`, `execution:log` and `execution:end` carry the bus event (secrets masked); `snapshot` carries the execution record (or, on a workflow stream, `{items}`: its newest executions).',
    properties: { executionId: string, workflowId: string },
  },
} satisfies Record<string, JsonSchema>;
