import { ReactFlowProvider } from '@xyflow/react';
import { api, seg } from '../api.js';
import { EditorTab } from '../editor/EditorTab.js';
import { ExecutionsTab } from '../executions/ExecutionsTab.js';
import { TryItButton } from '../executions/TryIt.js';
import { href } from '../route.js';
import type { WorkflowSummary } from '../types.js';
import { useLoad } from '../ui/hooks.js';
import { ErrorNote, Status } from '../ui/parts.js';
import { WebhookTab } from '../webhook/WebhookTab.js';

const TABS = [
  { id: 'editor', title: 'Editor' },
  { id: 'executions', title: 'Executions' },
  { id: 'webhook', title: 'Webhook' },
];

/** One flow: its name and sync status over the tabs (editor, executions, webhook). */
export function FlowPage({ id, tab, sub }: { id: string; tab: string; sub?: string }) {
  const flow = useLoad((signal) => api.get<WorkflowSummary>(`/workflows/${seg(id)}`, signal), [id]);
  return (
    <section className="page flow-page">
      <header className="page-head">
        <a href={href(['flows'])} className="back">
          Flows
        </a>
        <h1>{flow.value?.name ?? id}</h1>
        {flow.value && <Status value={flow.value.status} />}
        <TryItButton flowId={id} />
        <nav className="tabs" aria-label="Flow">
          {TABS.map((t) => (
            <a key={t.id} href={href(['flows', id, t.id])} aria-current={tab === t.id ? 'page' : undefined}>
              {t.title}
            </a>
          ))}
        </nav>
      </header>
      <ErrorNote error={flow.error} title="Could not load the flow" />
      {flow.value && (
        <ReactFlowProvider>
          {tab === 'editor' && <EditorTab flow={flow.value} onSaved={flow.reload} />}
          {tab === 'executions' && <ExecutionsTab flow={flow.value} executionId={sub} />}
          {tab === 'webhook' && <WebhookTab flow={flow.value} onChanged={flow.reload} />}
        </ReactFlowProvider>
      )}
    </section>
  );
}
