import type { WorkflowConfig } from '../types.js';

/** A starting flow for `weir workflows create <name> --template <name>`: a valid config and what to do next. */
export interface FlowTemplate {
  name: string;
  /** One line: what the flow does. */
  summary: string;
  /** A fresh copy of the config, valid as it is. */
  config(): WorkflowConfig;
  /** The commands to run next, with `<flow>` standing for the new workflow's name. */
  next: string[];
}
