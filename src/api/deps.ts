import type { WeirConfig } from '../config.js';
import type { WeirBus } from '../events.js';
import type { Interfaces } from '../resources/interfaces/index.js';
import type { Capture } from '../triggers/webhook/capture.js';
import type { WeirExecutions } from '../types/executions.js';
import type { Executor } from '../types/executor.js';
import type { Workflows } from '../types/workflows.js';

/** What the management API uses of a weir instance (a `Weir` is one). */
export interface ApiDeps {
  home?: string;
  config: WeirConfig;
  bus: WeirBus;
  workflows: Pick<Workflows, 'list' | 'get' | 'getLocal' | 'findPublished' | 'status' | 'save' | 'publish' | 'diff'>;
  executions: Pick<WeirExecutions, 'page' | 'get' | 'cancel' | 'retry' | 'rerun'>;
  capture: Pick<Capture, 'listen' | 'poll' | 'accept' | 'decline' | 'format'>;
  executor: Pick<Executor, 'run'>;
  interfaces: Pick<Interfaces, 'accessToken'>;
}
