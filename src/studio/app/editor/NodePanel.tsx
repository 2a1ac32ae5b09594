import { useState } from 'react';
import type { FlowNode, NodeTypeInfo } from '../types.js';
import type { Completion } from './completions.js';
import { ConfigForm } from './ConfigForm.js';
import { JsonText } from './JsonText.js';
import type { JsonSchema } from './schema.js';

interface Props {
  node: FlowNode;
  info: NodeTypeInfo | undefined;
  problems: { path: string; message: string }[] | undefined;
  completions: Completion[];
  /** A config edit; `key` names the place edited (keystrokes there join into one undo step). */
  onConfig(config: Record<string, unknown>, key: string): void;
  onLabel(label: string): void;
  onDelete(): void;
}

/**
 * The selected node: its type and docs, its label, its config as a form made from the type's schema or as raw
 * JSON (both stay open, so a JSON text that does not parse is kept while the form is looked at), its problems.
 */
export function NodePanel({ node, info, problems, completions, onConfig, onLabel, onDelete }: Props) {
  const [view, setView] = useState<'form' | 'json'>('form');
  const [jsonOk, setJsonOk] = useState(true);
  const config = node.config ?? {};
  const schema = (info?.config ?? null) as JsonSchema | null;
  const own = (problems ?? []).filter((p) => !p.path.startsWith('config.'));
  return (
    <aside className="node-panel" aria-label={`Node ${node.id}`}>
      <header>
        <h2>{info?.title ?? node.type}</h2>
        <code>{node.id}</code>
        <button className="danger" onClick={onDelete} aria-label={`Delete node ${node.id}`}>
          Delete
        </button>
      </header>
      {info?.description && <p className="muted">{info.description}</p>}
      {!info && <p className="warn">Unknown node type "{node.type}": the host has no such type.</p>}
      <label className="field">
        <span className="field-name">label</span>
        <input aria-label="label" value={node.label ?? ''} placeholder="A name for people" onChange={(e) => onLabel(e.target.value)} />
      </label>
      {own.map((p) => (
        <div key={p.path + p.message} className="field-problem" role="alert">
          ⚠ {p.message}
        </div>
      ))}
      <div className="view-switch" role="tablist" aria-label="Config view">
        <button role="tab" aria-selected={view === 'form'} onClick={() => setView('form')}>
          Form
        </button>
        <button role="tab" aria-selected={view === 'json'} onClick={() => setView('json')}>
          JSON{jsonOk ? '' : ' ⚠'}
        </button>
      </div>
      <div role="tabpanel" hidden={view !== 'form'}>
        {!jsonOk && <p className="warn">The JSON view holds text that does not parse: the form shows the last config that did.</p>}
        <ConfigForm schema={schema} value={config} onChange={(c, key) => onConfig(c, `form:${key}`)} completions={completions} problems={problems} />
      </div>
      <div role="tabpanel" hidden={view !== 'json'}>
        <JsonText label="config JSON" value={config} objectOnly allowEmpty={false} rows={16} onChange={(c) => onConfig(c as Record<string, unknown>, 'json')} onValidity={setJsonOk} />
        {(problems ?? [])
          .filter((p) => p.path.startsWith('config'))
          .map((p) => (
            <div key={p.path + p.message} className="field-problem">
              ⚠ <code>{p.path.slice('config.'.length) || 'config'}</code> {p.message}
            </div>
          ))}
      </div>
    </aside>
  );
}
