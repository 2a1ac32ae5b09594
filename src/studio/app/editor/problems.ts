// The save validation's problems, as the editor shows them: on their node (the canvas overlay and the form's
// fields) or on the flow as a whole. Checked on the host (POST /workflows/validate), the same checks `save` makes.
import { useEffect, useState } from 'react';
import { api } from '../api.js';
import type { Problem, WorkflowConfig } from '../types.js';

/** How long the editor waits after an edit before checking. */
export const VALIDATE_DEBOUNCE_MS = 300;

export interface PlacedProblems {
  /** A node's problems: its id -> each problem, its path relative to the node (`config.url`, `id`). */
  byNode: Map<string, { path: string; message: string }[]>;
  /** The problems of the flow as a whole (the trigger count, an edge). */
  flow: Problem[];
}

const NODE_PATH = /^nodes\[(\d+)\](?:\.(.*))?$/;

/** Each problem on its node (by the `nodes[i]` of its path, in the config checked) or on the flow. */
export function placeProblems(config: WorkflowConfig, problems: Problem[]): PlacedProblems {
  const byNode = new Map<string, { path: string; message: string }[]>();
  const flow: Problem[] = [];
  for (const p of problems) {
    const m = NODE_PATH.exec(p.path);
    const id = p.node ?? (m ? config.nodes[Number(m[1])]?.id : undefined);
    if (!id) {
      flow.push(p);
      continue;
    }
    // The validator names the node at the start of its message ("condition-1: ..."): the node shows it already.
    const message = p.message.startsWith(`${id}: `) ? p.message.slice(id.length + 2) : p.message;
    byNode.set(id, [...(byNode.get(id) ?? []), { path: m?.[2] ?? '', message }]);
  }
  return { byNode, flow };
}

/** A node's problems at one config key path (`url`, `headers.x`), and under it. */
export const problemsAt = (nodeProblems: { path: string; message: string }[] | undefined, keyPath: string): string[] =>
  (nodeProblems ?? []).filter((p) => p.path === `config.${keyPath}` || p.path.startsWith(`config.${keyPath}.`) || p.path.startsWith(`config.${keyPath}[`)).map((p) => p.message);

export interface Validation {
  /** The config the problems are of (they are placed by its node indexes). */
  config: WorkflowConfig;
  problems: Problem[];
  /** The handles of each node whose handles come from its config (a switch's cases), by node id. */
  handles: Record<string, string[]>;
}

/** The problems of `config`, checked on the host once edits pause; the previous answer stays until the next. */
export function useValidation(config: WorkflowConfig | undefined): { validation?: Validation; error?: string } {
  const [state, setState] = useState<{ validation?: Validation; error?: string }>({});
  useEffect(() => {
    if (!config) return;
    let live = true;
    const timer = setTimeout(() => {
      api.post<{ problems: Problem[]; handles: Record<string, string[]> }>('/workflows/validate', config).then(
        ({ problems, handles }) => live && setState({ validation: { config, problems, handles } }),
        // The last answer stays beside the error: the problems it lists were true of a recent config.
        (err: Error) => live && setState((s) => ({ validation: s.validation, error: err.message })),
      );
    }, VALIDATE_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [config]);
  return state;
}
