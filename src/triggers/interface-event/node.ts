import { defineNode } from '../../nodes/define.js';
import { INPUT_PARAMS_CONFIG, validateInputParams } from '../input-params.js';

/** A backend function the frontend calls with `callFlow(name, input)`. */
export const interfaceEventTrigger = defineNode({
  type: 'interface_event_trigger',
  docs: {
    summary: "A backend function an interface's frontend calls with callFlow(name, input), its declared inputs checked",
    output: 'The input the call gives',
    example: { inputParams: [{ name: 'email', type: 'string', required: true }] },
  },
  trigger: true,
  config: INPUT_PARAMS_CONFIG,
  validate: validateInputParams,
});
