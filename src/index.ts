/**
 * weir: an embeddable workflow-automation runtime.
 * @packageDocumentation
 */
export { createWeir, type Weir, type WeirOptions } from './weir.js';
export { WeirError, CODES, toExit, toHttp, toJson, type ErrorCode } from './errors.js';
export { defineNode, type NodeDefinition, type NodeContext, type Problem } from './nodes/index.js';
export { openStorage, type Storages, type MountName } from './storage/index.js';
export { resolveHome, loadConfig, type WeirConfig } from './config.js';
export type { WeirEvents, WeirBus } from './events.js';
export type {
  FlowConfig,
  FlowNode,
  FlowEdge,
  SyncStatus,
  WorkflowSummary,
  WorkflowDetails,
  LocalWorkflow,
  PublishedWorkflow,
} from './resources/workflows/index.js';
