import type { JsonSchema } from '../../util/json-schema.js';
import type { ApiDeps } from '../deps.js';

/** A workflow's id or its name, as the CLI takes them. */
export const workflowRef: JsonSchema = { type: 'string', description: "The workflow's id or its name." };
/** An execution id. */
export const executionRef: JsonSchema = { type: 'string', description: 'The execution id (`exec_…`).' };

/**
 * A workflow by id or name: its local draft, else its published copy; neither is the draft lookup's
 * NOT_FOUND, which names the nearest workflows.
 * @example
 * const { flow } = await findFlow(deps.workflows, 'orders')
 */
export async function findFlow(workflows: ApiDeps['workflows'], ref: string) {
  const local = await workflows.getLocal(ref).catch(() => null);
  const published = await workflows.findPublished(local?.id ?? ref);
  const flow = local ?? published ?? (await workflows.getLocal(ref));
  return { flow, local, published };
}
