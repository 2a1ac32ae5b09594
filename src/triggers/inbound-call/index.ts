import { defineTrigger } from '../define.js';
import { postCallRoutes } from '../telephony/routes.js';
import { inboundCallTrigger } from './node.js';

/** The inbound call trigger: the voice provider's post-call webhook starts the flows of the called number and agent. */
export const inboundCall = defineTrigger({
  node: inboundCallTrigger,
  routes: {
    /** `POST` voice provider post-call webhook */
    telephony: (rt) => postCallRoutes(rt),
  },
});
