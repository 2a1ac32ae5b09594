import type { WeirConfig } from '../config.js';
import type { WeirBus } from '../events.js';
import type { NodeRegistry } from '../nodes/index.js';
import type { Interfaces } from '../resources/interfaces/index.js';
import type { Capture } from '../triggers/webhook/capture.js';
import type { WeirExecutions } from '../types/executions.js';
import type { Runtime } from '../runtime/index.js';
import type { Workflows } from '../types/workflows.js';

/** What the management API uses of a weir instance (a `Weir` is one). */
export interface ApiDeps {
  home?: string;
  config: WeirConfig;
  bus: WeirBus;
  workflows: Pick<Workflows, 'list' | 'get' | 'getLocal' | 'findPublished' | 'status' | 'save' | 'publish' | 'diff' | 'create' | 'update' | 'delete' | 'validate'>;
  executions: Pick<WeirExecutions, 'page' | 'get' | 'cancel' | 'retry' | 'rerun' | 'approve' | 'activity'>;
  capture: Pick<Capture, 'listen' | 'poll' | 'accept' | 'decline' | 'format'>;
  /** Runs started by hand (the run and rerun routes) go through the flow's concurrency and rate limit. */
  runtime: Pick<Runtime, 'run'>;
  /** The instance's node types (built-in and its own): `GET /node-types`. */
  nodes: Pick<NodeRegistry, 'get' | 'values'>;
  interfaces: Pick<Interfaces, 'accessToken' | 'list' | 'get' | 'folder'>;
}
