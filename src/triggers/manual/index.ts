import { defineTrigger } from '../define.js';
import { manualTrigger } from './node.js';

/** The manual trigger: started by hand (`weir workflows run`, `executeFlow`); no route, nothing to start. */
export const manual = defineTrigger({ node: manualTrigger });
