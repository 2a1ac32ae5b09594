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
  WorkflowOverview: {
    type: 'object',
    description: "A workflow's summary with its newest execution and how many of its executions that started in the last 24 hours failed.",
    required: ['id', 'name', 'status', 'trigger', 'localVersion', 'publishedVersion', 'updatedAt', 'lastExecution', 'errors24h'],
    properties: {
      id: string,
      name: string,
      description: string,
      status: ref('SyncStatus'),
      trigger: nullable(string),
      localVersion: nullable({ type: 'integer' }),
      publishedVersion: nullable({ type: 'integer' }),
      updatedAt: time,
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
  ErrorInfo: errorInfo,
  NodeRecord: {
    type: 'object',
    required: ['status', 'startedAt', 'finishedAt'],
    properties: {
      data: anyValue,
      status: { enum: ['success', 'error', 'skipped', 'waiting', 'running'] },
      startedAt: nullable(time),
      finishedAt: nullable(time),
      error: ref('ErrorInfo'),
      attempts: { type: 'integer' },
      logs: { type: 'array', items: { type: 'object', required: ['at', 'level', 'message'], properties: { at: time, level: string, message: string, data: anyValue } } },
      handle: { description: 'the handle a branching node left by, or the handles of a fan-out (a switch of mode `all`)', anyOf: [string, { type: 'array', items: string }] },
      wait: {
        type: 'object',
        description: 'Of a `waiting` node: what it waits for, by `kind`: `time` (`until`), `webhook` (`timeoutAt`), `children` (`executionIds`) or `approval` (`tool` and its `input`: decided with `POST /executions/{id}/approve`).',
      },
      progress: { description: 'Of a `running` node: how far it got (a foreach: the sub-flow runs started and the entries of those that ended).' },
      usage: ref('Usage'),
    },
  },
  TokenCounts: {
    type: 'object',
    required: ['promptTokens', 'completionTokens', 'totalTokens'],
    properties: { promptTokens: { type: 'integer' }, completionTokens: { type: 'integer' }, totalTokens: { type: 'integer' } },
  },
  Usage: {
    type: 'object',
    description: "Language-model tokens a node (an `agent`) reported, or an execution's nodes in all: the sums and the same by model.",
    required: ['promptTokens', 'completionTokens', 'totalTokens', 'byModel'],
    properties: {
      promptTokens: { type: 'integer' },
      completionTokens: { type: 'integer' },
      totalTokens: { type: 'integer' },
      byModel: { type: 'object', additionalProperties: ref('TokenCounts') },
    },
  },
  ExecutionStatus: { type: 'string', enum: ['queued', 'running', 'waiting', 'success', 'error', 'cancelled', 'debounced'] },
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
      debouncedInto: { type: 'string', description: 'Of a `debounced` delivery: the execution its burst ran as (settings.debounce).' },
      hash: string,
      draft: { const: true },
      parentExecutionId: { type: 'string', description: 'The execution that started this one (a `call_flow` node of it: `parentNodeId`).' },
      parentNodeId: { type: 'string', description: 'The node of the parent execution that started this one.' },
      children: { type: 'array', description: 'The executions this one started, in the order they started.', items: ref('ChildExecution') },
      usage: ref('Usage'),
      errorFlow: {
        type: 'object',
        description: 'Of a failed execution whose flow has `settings.errorFlow`: the error flow execution it started (`executionId`), or why none ran (`problem`).',
        required: ['flow'],
        properties: { flow: string, executionId: string, problem: string },
      },
      queuedFor: {
        type: 'object',
        description: 'Of a `queued` execution: the flow setting it waits for (`concurrency`, `rateLimit` or `debounce`) and the value of its key (null without one).',
        required: ['rule', 'key'],
        properties: { rule: { enum: ['concurrency', 'rateLimit', 'debounce'] }, key: nullable(string) },
      },
    },
  },
  ApprovalAnswer: {
    type: 'object',
    description: 'A decision on the approval an execution waits for: approved or denied (the reason, if given), the tool whose call waited, and whether it applied at once (false: kept for the first approval the execution reaches).',
    required: ['executionId', 'approved', 'applied'],
    properties: { executionId: string, approved: { type: 'boolean' }, reason: string, tool: string, applied: { type: 'boolean' } },
  },
  ChildExecution: {
    type: 'object',
    description: 'An execution another one started (the sub-flow of a `call_flow` node): its id, its workflow, and the parent node that started it.',
    required: ['executionId', 'workflowId', 'nodeId'],
    properties: { executionId: string, workflowId: string, nodeId: string },
  },
  CutValue: {
    type: 'object',
    description:
      'What stands for a value too large to answer (`GET /executions/{id}?maxValueBytes=`): the size of its JSON in bytes and the first 2048 characters of that JSON. `GET /executions/{id}/nodes/{nodeId}/data` answers the whole value.',
    required: ['$cut', 'bytes', 'preview'],
    properties: { $cut: { const: true }, bytes: { type: 'integer' }, preview: string },
  },
  ExecutionPage: {
    type: 'object',
    description: 'One page of executions, newest first; `nextCursor` (null on the last page) fetches the next.',
    required: ['items', 'nextCursor'],
    properties: { items: { type: 'array', items: ref('ExecutionRecord') }, nextCursor: nullable(string) },
  },
  Interface: {
    type: 'object',
    description: 'An interface as `weir interface list --json` shows it (`deployed`: its newest deploy, null before the first), with the URL of its running preview (`weir preview`), null when none runs.',
    required: ['id', 'name', 'type', 'createdAt', 'updatedAt', 'deployed', 'previewUrl'],
    properties: {
      id: string,
      name: string,
      type: { enum: ['external', 'internal'] },
      description: string,
      dir: { type: 'string', description: 'The source folder it was created in (on the host machine).' },
      createdAt: time,
      updatedAt: time,
      deployed: nullable({
        type: 'object',
        required: ['version', 'at', 'files', 'bytes'],
        properties: { version: { type: 'integer', minimum: 1 }, at: time, files: { type: 'integer' }, bytes: { type: 'integer' } },
      }),
      previewUrl: nullable(string),
    },
  },
  Preview: {
    type: 'object',
    description: 'A running preview: its dev server URL, and `started`: true when it was started for this request (or for one it came together with), false when it already ran.',
    required: ['id', 'name', 'url', 'started'],
    properties: { id: string, name: string, url: string, started: { type: 'boolean' } },
  },
  PreviewLogs: {
    type: 'object',
    description: "The last lines of a preview's dev-server log (or its page's console), oldest first; `running`: whether the preview runs now (a stopped one's log stays until the next start).",
    required: ['lines', 'running'],
    properties: { lines: { type: 'array', items: string }, running: { type: 'boolean' } },
  },
  BusEvent: {
    type: 'object',
    description:
      'The data of one server-sent event: `execution:start`, `node:start`, `node:end`, `execution:log` and `execution:end` carry the bus event (secrets masked); `snapshot` carries the execution record (or, on a workflow stream, `{items}`: its newest executions).',
    properties: { executionId: string, workflowId: string },
  },
} satisfies Record<string, JsonSchema>;
