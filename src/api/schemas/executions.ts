import type { JsonSchema } from '../../util/json-schema.js';
import { anyValue, nullable, ref, string, time } from './common.js';

/** Executions: records, their nodes, usage, children and pages, and the events of their streams. */
export const executionSchemas = {
  ErrorInfo: {
    type: 'object',
    required: ['code', 'message'],
    properties: { code: string, message: string, status: { type: 'integer' }, node: string },
  },
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
  BusEvent: {
    type: 'object',
    description:
      'The data of one server-sent event: `execution:start`, `node:start`, `node:end`, `execution:log` and `execution:end` carry the bus event (secrets masked); `snapshot` carries the execution record (or, on a workflow stream, `{items}`: its newest executions).',
    properties: { executionId: string, workflowId: string },
  },
} satisfies Record<string, JsonSchema>;
