/**
 * Everything the built package's entries share, bundled once (dist/internal.js and .cjs, which no one imports
 * by name: package.json exports only the entries): the public names of src/index.ts and the host core's
 * helpers the adapters put behind a transport. src/index.ts and adapters/ import from here, so the package
 * holds one copy of each module (one WeirError class, whichever entry threw it).
 */
export { createWeir, type Weir, type WeirOptions } from './weir.js';
export { WeirError, CODES, errorResponse, type ErrorCode, type WeirErrorOptions } from './errors.js';
export type { Outcome, TriggerEvent, TriggerKind, FlowRef, ErrorInfo, DecodedBody, WebhookRequest } from './types/trigger.js';
export type { Authorize } from './api/index.js';
export {
  createHost,
  createMount,
  ROUTE_GROUPS,
  splitUrl,
  mediaType,
  encodeResponse,
  tooLarge,
  DEFAULT_MAX_BODY,
  DEFAULT_PORT,
  type Host,
  type HostDeps,
  type HostOptions,
  type HostRequest,
  type HostResponse,
  type Mount,
  type MountOptions,
  type Route,
  type RouteGroup,
  type RouteParams,
} from './host/index.js';
export { onAbort } from './util/abort.js';
export { defineNode, type NodeDefinition, type NodeContext, type NodeDocs, type NodeHandles, type Problem, type NodeConfigs } from './nodes/index.js';
export { defineTrigger, type TriggerDefinition, type TriggerRuntime, type StopTrigger } from './triggers/index.js';
export type { FlowConfig, TypedNode, WrittenConfig, Template } from './nodes/flow-config.js';
export type { ExecutionFacade } from './flow/types.js';
export type { NodeServices, RunWorkflow } from './types/node-services.js';
export type { Waits, ResumeCall, ApprovalAnswer } from './types/waits.js';
export type { Storages, MountName, KeyValueStorage } from './storage/index.js';
export type { WeirConfig } from './config.js';
export type { WeirEvents, WeirBus } from './events.js';
export type { WeirLogger } from './logging/logger.js';
export type {
  WorkflowConfig,
  FlowNode,
  NodeConfig,
  FlowEdge,
  SyncStatus,
  WorkflowSummary,
  WorkflowDetails,
  LocalWorkflow,
  PublishedWorkflow,
} from './resources/workflows/index.js';
// The executor built on its own, for bench/executor.ts (the executor without an instance around it).
export { createExpressions, type Scope } from './expr/index.js';
export { createExecutor } from './flow/index.js';
export { Suspend } from './flow/suspend.js';
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
  WaitInfo,
  Approval,
  Wake,
  ExecutionVariables,
} from './flow/index.js';
export type { Executions } from './resources/executions/index.js';
export type { ExecutionControl, WeirExecutions, ExecutionStatusView } from './types/executions.js';
export type { Sandbox, SandboxLoad } from './sandbox/index.js';
export type { Metrics } from './observe/metrics.js';
export type { Interfaces, InterfaceRecord, InterfaceManifest, InterfaceType, InterfaceLogEntry } from './resources/interfaces/index.js';
export type { Projects, ProjectState } from './resources/projects/index.js';
export type { VoiceAgents, InboundMapping, InboundConfigured, InboundStatus, TwilioNumberStatus } from './resources/voice-agents/index.js';
export type { VoiceAgent, VoicePhoneNumber, VoiceProvider, TelephonyProvider, TwilioNumber } from './providers/index.js';
export { twilioSignature, verifyTwilioSignature, postCallSignature, verifyPostCallSignature } from './triggers/telephony/signatures.js';
export type { Tables, TableMeta, TableDetails, TableSchema, ColumnDef, IndexDef, ColumnType, Row, ExecResult, TableEngine, SystemTable } from './resources/tables/index.js';
export type { Kv, KvNamespace } from './resources/kv/index.js';
export type { Objects, ObjectInfo } from './resources/objects/index.js';
export type { Secrets, SecretSummary } from './resources/secrets/index.js';
export type { Knowledge, KnowledgeDocument, KnowledgeFolder, SearchHit } from './resources/knowledge/index.js';
export type { Agents, Agent, AgentSummary } from './resources/agents/index.js';
