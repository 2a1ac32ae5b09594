/**
 * weir: an embeddable workflow-automation runtime. What an embedder uses: `createWeir`, `defineNode` and
 * `defineTrigger` for its own node types and triggers, `WeirError` and its codes, the transport-free host
 * (`createHost`; the HTTP adapters are `weir/node-http` and `weir/fetch`), the signature verifiers, and the
 * types of all of them. Everything comes through src/internal.ts, which the build bundles once.
 * @packageDocumentation
 */
export { createWeir, type Weir, type WeirOptions } from './internal.js';
export { WeirError, CODES, type ErrorCode, type WeirErrorOptions } from './internal.js';

// Custom node types and triggers (docs/extending.md), and flows typed in TypeScript.
export { defineNode, type NodeDefinition, type NodeContext, type NodeDocs, type NodeHandles, type Problem, type NodeConfigs } from './internal.js';
export { defineTrigger, type TriggerDefinition, type TriggerRuntime, type StopTrigger } from './internal.js';
export { Suspend, type WaitInfo } from './internal.js';
export type { ExecutionFacade, ExecutionVariables, NodeServices, RunWorkflow } from './internal.js';
export type { FlowConfig, TypedNode, WrittenConfig, Template } from './internal.js';
export type { WorkflowConfig, FlowNode, NodeConfig, FlowEdge } from './internal.js';
export type { Outcome, TriggerEvent, TriggerKind, FlowRef, ErrorInfo, DecodedBody, WebhookRequest } from './internal.js';

// The transport-free host a trigger's routes and start-up run in, for a transport of your own.
export { createHost, onAbort } from './internal.js';
export type { Authorize } from './internal.js';
export type { Host, HostDeps, HostOptions, HostRequest, HostResponse, Route, RouteGroup, RouteParams } from './internal.js';
export { twilioSignature, verifyTwilioSignature, postCallSignature, verifyPostCallSignature } from './internal.js';

// What a weir instance holds, by type.
export type { WeirConfig, WeirEvents, WeirBus, WeirLogger, Storages, MountName, KeyValueStorage } from './internal.js';
export type { SyncStatus, WorkflowSummary, WorkflowDetails, LocalWorkflow, PublishedWorkflow } from './internal.js';
export type {
  Executor,
  ExecutorHooks,
  ExecutionRecord,
  ExecutionStatus,
  NodeRecord,
  NodeLogLine,
  NodeLogLevel,
  RunOptions,
  RunState,
  WeirRunOptions,
  Wake,
  Executions,
  ExecutionControl,
  WeirExecutions,
  ExecutionStatusView,
  Waits,
  ResumeCall,
  Approval,
  ApprovalAnswer,
} from './internal.js';
export type { Sandbox, SandboxLoad, Metrics } from './internal.js';
export type { Interfaces, InterfaceRecord, InterfaceManifest, InterfaceType, InterfaceLogEntry } from './internal.js';
export type { Projects, ProjectState } from './internal.js';
export type { VoiceAgents, InboundMapping, InboundConfigured, InboundStatus, TwilioNumberStatus } from './internal.js';
export type { VoiceAgent, VoicePhoneNumber, VoiceProvider, TelephonyProvider, TwilioNumber } from './internal.js';
export type { Tables, TableMeta, TableDetails, TableSchema, ColumnDef, IndexDef, ColumnType, Row, ExecResult, TableEngine, SystemTable } from './internal.js';
export type { Kv, KvNamespace } from './internal.js';
export type { Objects, ObjectInfo } from './internal.js';
export type { Secrets, SecretSummary } from './internal.js';
export type { Knowledge, KnowledgeDocument, KnowledgeFolder, SearchHit } from './internal.js';
export type { Agents, Agent, AgentSummary } from './internal.js';
