import { defineTrigger } from '../define.js';
import { errorTrigger } from './node.js';

/**
 * The error trigger: no route and nothing to start. Its flows are run by the executor's end hook when an
 * execution of a flow naming them in `settings.errorFlow` fails (src/runtime/error-flows.ts).
 */
export const errorFlowTrigger = defineTrigger({ node: errorTrigger });
