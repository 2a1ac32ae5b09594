import { defineNode } from '../../nodes/define.js';
import { INPUT_PARAMS_CONFIG, validateInputParams } from '../input-params.js';

/** Started by hand (`weir workflows run`). */
export const manualTrigger = defineNode({
  type: 'manual_trigger',
  trigger: true,
  docs: {
    summary: 'Started by hand (`weir workflows run`, `weir.run`), its declared inputs checked',
    output: 'The input given (`--input`)',
    example: { inputParams: [{ name: 'amount', type: 'number', required: true }] },
  },
  config: INPUT_PARAMS_CONFIG,
  validate: validateInputParams,
});
