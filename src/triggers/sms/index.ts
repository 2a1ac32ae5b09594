import { defineTrigger } from '../define.js';
import { smsRoutes } from '../telephony/routes.js';
import { smsReceivedTrigger } from './node.js';

/** The SMS trigger: Twilio's incoming-message webhook starts the flows of the number a message was sent to. */
export const sms = defineTrigger({
  node: smsReceivedTrigger,
  routes: {
    /** `POST` Twilio SMS webhook */
    telephony: (rt) => smsRoutes(rt),
  },
});
