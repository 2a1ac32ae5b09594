import { manualTrigger } from '../nodes/triggers/simple.js';
import { defineTrigger } from './define.js';

/** The manual trigger: started by hand (`weir workflows run`, `executeFlow`); no route, nothing to start. */
export const manual = defineTrigger({ node: manualTrigger });
