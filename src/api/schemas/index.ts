import { errorSchemas } from './common.js';
import { executionSchemas } from './executions.js';
import { interfaceSchemas } from './interfaces.js';
import { workflowSchemas } from './workflows.js';

export { ref } from './common.js';

/**
 * The shared schemas of the management API (`components.schemas` of its OpenAPI document): the error document
 * of every failure, and the records the routes answer with (the `--json` data of the matching CLI commands).
 */
export const components = { ...errorSchemas, ...workflowSchemas, ...executionSchemas, ...interfaceSchemas };
