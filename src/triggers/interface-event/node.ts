import { defineNode } from '../../nodes/define.js';
import { INPUT_PARAMS_CONFIG, validateInputParams } from '../input-params.js';

/** A backend function the frontend calls with `callFlow(name, input)`. */
export const interfaceEventTrigger = defineNode({
  type: 'interface_event_trigger',
  trigger: true,
  config: INPUT_PARAMS_CONFIG,
  validate: validateInputParams,
});
