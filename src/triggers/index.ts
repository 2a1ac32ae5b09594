import type { TriggerDefinition } from './define.js';
import { errorFlowTrigger } from './error/index.js';
import { inboundCall } from './inbound-call/index.js';
import { interfaceEvent } from './interface-event/index.js';
import { manual } from './manual/index.js';
import { schedule } from './schedule/index.js';
import { sms } from './sms/index.js';
import { webhook } from './webhook/index.js';

export { defineTrigger, type TriggerDefinition, type TriggerRuntime, type StopTrigger } from './define.js';

/** Every built-in trigger kind: adding one is its module and one line here. */
export const builtinTriggers: readonly TriggerDefinition[] = [webhook, schedule, manual, interfaceEvent, inboundCall, sms, errorFlowTrigger];
