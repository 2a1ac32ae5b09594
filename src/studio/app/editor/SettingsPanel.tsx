import type { WorkflowConfig } from '../types.js';
import { ConfigForm } from './ConfigForm.js';
import type { JsonSchema } from './schema.js';

interface Props {
  config: WorkflowConfig;
  /** `properties.settings` of the instance's flow schema (GET /workflow-schema); none while it loads. */
  schema: JsonSchema | undefined;
  /** The flow's problems: those under `settings.` are shown on their fields. */
  problems: { path: string; message: string }[];
  /** The new settings (undefined when none is left), and the key path edited (keystrokes there join into one undo step). */
  onChange(settings: WorkflowConfig['settings'], keyPath: string): void;
}

/**
 * The flow's settings, shown while no node is selected: error flow, concurrency, rate limit, debounce and MCP tool, as a
 * form made from their schema (the same form a node's config gets), each field with its save problems.
 */
export function SettingsPanel({ config, schema, problems, onChange }: Props) {
  // The form places a problem by its path under `config.`; the validator words settings' under `settings.`.
  // The validator's message starts with the path, which the field shows already.
  const own = problems
    .filter((p) => p.path.startsWith('settings.'))
    .map((p) => ({ path: `config.${p.path.slice('settings.'.length)}`, message: p.message.startsWith(`${p.path}: `) ? p.message.slice(p.path.length + 2) : p.message }));
  return (
    <section className="flow-settings" aria-label="Flow settings">
      <h2>Flow settings</h2>
      <p className="muted">What happens around this flow's executions. Keys are {'{{ }}'} expressions over $input: the rule then holds per value.</p>
      {schema ? (
        <ConfigForm
          schema={schema}
          value={(config.settings ?? {}) as Record<string, unknown>}
          onChange={(next, key) => onChange(Object.keys(next).length ? next : undefined, `settings:${key}`)}
          completions={[]}
          problems={own}
        />
      ) : (
        <p className="muted">Loading the settings…</p>
      )}
    </section>
  );
}
