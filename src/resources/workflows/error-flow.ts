import { WeirError } from '../../errors.js';
import { ERROR_TRIGGER, isErrorFlow } from '../../triggers/error/node.js';
import { didYouMean } from '../../util/nearest.js';
import type { ErrorFlowUser, LocalWorkflow, PublishedWorkflow, WorkflowConfig } from './types.js';

/** Whether a copy of a flow runs `wf` when it fails: it names it, and is no error flow itself (those run none). */
const runs = (config: WorkflowConfig, wf: { id: string; names: Set<string> }) => {
  const ref = config.settings?.errorFlow;
  return ref !== undefined && (ref === wf.id || wf.names.has(ref)) && !isErrorFlow(config);
};

/**
 * The flows whose published copy or draft names `target` (by id, or by its draft's or published copy's name)
 * in `settings.errorFlow`, by name; error flows, whose failures run none, are left out.
 * @example
 * errorFlowUsers(alerts, published, drafts, publishedCopies) // [{ id: 'wf_1', name: 'orders', published: true }]
 */
export function errorFlowUsers(target: LocalWorkflow, targetPublished: PublishedWorkflow | null, drafts: LocalWorkflow[], published: PublishedWorkflow[]): ErrorFlowUser[] {
  const wf = { id: target.id, names: new Set([target.name, ...(targetPublished ? [targetPublished.name] : [])]) };
  const users = new Map<string, ErrorFlowUser>();
  for (const pub of published) if (runs(pub.config, wf)) users.set(pub.id, { id: pub.id, name: pub.name, published: true });
  for (const draft of drafts) {
    const user = users.get(draft.id);
    if (user) user.name = draft.name;
    else if (runs(draft.config, wf)) users.set(draft.id, { id: draft.id, name: draft.name, published: false });
  }
  return [...users.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** What publishing a flow reads of the flow its `settings.errorFlow` names. */
export interface ErrorFlowLookup {
  draft(ref: string): Promise<LocalWorkflow | null>;
  published(ref: string): Promise<PublishedWorkflow | null>;
  /** Names and ids of every workflow, for "did you mean". */
  known(): Promise<string[]>;
}

/**
 * Refuses (INVALID_CONFIG, exit 1) to publish a flow whose `settings.errorFlow` names itself, no flow, or a
 * flow whose trigger is not `error_trigger`. An error flow that is only a draft is accepted (flows may be
 * published in any order); until it is published a failure records why it did not run. Save accepts any
 * name, for the same reason.
 * @example
 * await checkErrorFlowRef(wf, { draft: findLocal, published: findPublished, known: knownRefs }) // throws INVALID_CONFIG for an unknown flow
 */
export async function checkErrorFlowRef(wf: LocalWorkflow, lookup: ErrorFlowLookup): Promise<void> {
  const ref = wf.config.settings?.errorFlow;
  if (ref === undefined) return;
  const refuse = (message: string, hints: string[] = []) => {
    throw new WeirError('INVALID_CONFIG', `cannot publish "${wf.name}": settings.errorFlow: ${message}`, { details: [{ path: 'settings.errorFlow', message }], hints });
  };
  if (ref === wf.id || ref === wf.name) refuse(`"${ref}" is this flow: an error flow is another flow, with trigger ${ERROR_TRIGGER}`);
  const [draft, pub] = await Promise.all([lookup.draft(ref), lookup.published(ref)]);
  if (!draft && !pub) {
    refuse(`no flow "${ref}"${didYouMean(ref, await lookup.known())}`, [`an error flow is a flow whose trigger is ${ERROR_TRIGGER}: create one (\`weir workflows create <name>\`), save it with that trigger, and publish it`]);
  }
  const config = (pub ?? draft)!.config;
  if (!isErrorFlow(config)) {
    refuse(`flow "${ref}" cannot be an error flow: its ${pub ? 'published' : 'draft'} trigger is not ${ERROR_TRIGGER}`);
  }
}
