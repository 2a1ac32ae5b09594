import { interfaceEventTrigger } from './node.js';
import { defineTrigger } from '../define.js';
import { interfaceEventRoutes } from './routes.js';

/** The interface event trigger: `POST /api/flows/<ref>`, the browser client's `callFlow`. */
export const interfaceEvent = defineTrigger({
  node: interfaceEventTrigger,
  routes: {
    /** `POST /api/flows/:ref` */
    api: (rt) => interfaceEventRoutes(rt),
  },
});
