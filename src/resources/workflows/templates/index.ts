import { WeirError } from '../../../errors.js';
import { didYouMean } from '../../../util/nearest.js';
import type { WorkflowConfig } from '../types.js';
import type { FlowTemplate } from './template.js';
import { formToTable } from './form-to-table.js';
import { scheduleToHttp } from './schedule-to-http.js';
import { signedGithubWebhook } from './signed-github-webhook.js';
import { webhookToRespond } from './webhook-to-respond.js';

export type { FlowTemplate } from './template.js';

/** The config every new workflow starts with: one manual trigger (`manual_trigger-1`), so it is valid at once. */
export const starterConfig = (): WorkflowConfig => ({
  nodes: [{ id: 'manual_trigger-1', type: 'manual_trigger', label: 'Manual trigger', config: {} }],
  edges: [],
  variables: {},
  metadata: {},
});

/** Every template, in the order `weir workflows templates` lists them. */
export const templates: readonly FlowTemplate[] = [webhookToRespond, scheduleToHttp, signedGithubWebhook, formToTable];

/** The type of a template's trigger node (its first node). */
export const templateTrigger = (t: FlowTemplate): string => t.config().nodes[0].type;

/**
 * The template of that name; NOT_FOUND naming the closest ones and listing them all otherwise.
 * @example
 * const config = templateNamed('webhook-to-respond').config()
 */
export function templateNamed(name: string): FlowTemplate {
  const found = templates.find((t) => t.name === name);
  if (found) return found;
  const names = templates.map((t) => t.name);
  throw new WeirError('NOT_FOUND', `unknown template "${name}"${didYouMean(name, names)}`, {
    hints: [`templates: ${names.join(', ')} (\`weir workflows templates\` says what each does)`],
  });
}
