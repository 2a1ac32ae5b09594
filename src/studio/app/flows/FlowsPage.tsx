import { useMemo, useRef, useState } from 'react';
import { api } from '../api.js';
import { navigate } from '../route.js';
import type { WorkflowOverview, WorkflowSummary } from '../types.js';
import { useLoad } from '../ui/hooks.js';
import { usePageKeys } from '../ui/keys.js';
import { ErrorNote } from '../ui/parts.js';
import { useToast } from '../ui/toast.js';
import { CreateFlowDialog, DeleteFlowDialog, RenameFlowDialog } from './FlowDialogs.js';
import { FlowList, type FlowListHandle } from './FlowList.js';

type Dialog = { kind: 'create' } | { kind: 'rename' | 'delete'; flow: WorkflowOverview } | null;

/** Whether a flow matches the search: its name, description or trigger type holds every word typed. */
export function matches(flow: WorkflowOverview, query: string): boolean {
  const text = `${flow.name} ${flow.description ?? ''} ${flow.trigger ?? ''}`.toLowerCase();
  return query.toLowerCase().split(/\s+/).every((word) => text.includes(word));
}

/**
 * Every flow with its trigger, sync status, last execution and errors of the last 24 h; a search box; create,
 * rename, delete. Keys: `/` searches, `n` creates, the list's own keys (FlowList) move, open, rename, delete.
 */
export function FlowsPage() {
  const flows = useLoad((signal) => api.get<WorkflowOverview[]>('/workflows/overview', signal), []);
  const [query, setQuery] = useState('');
  const [dialog, setDialog] = useState<Dialog>(null);
  const search = useRef<HTMLInputElement>(null);
  const list = useRef<FlowListHandle>(null);
  const toast = useToast();
  const all = flows.value ?? [];
  const shown = useMemo(() => (query.trim() ? all.filter((f) => matches(f, query.trim())) : all), [all, query]);
  usePageKeys({ '/': () => search.current?.focus(), n: () => setDialog({ kind: 'create' }) });

  const open = (flow: { id: string }) => navigate(['flows', flow.id]);
  const created = (flow: WorkflowSummary) => {
    toast(`Created flow "${flow.name}"`);
    open(flow);
  };
  const changed = (message: string) => {
    setDialog(null);
    toast(message);
    flows.reload();
  };

  return (
    <section className="page">
      <header className="page-head">
        <h1>Flows</h1>
        {flows.value && <span className="muted">{query.trim() ? `${shown.length} of ${all.length}` : all.length}</span>}
        <input
          ref={search}
          type="search"
          placeholder="Search flows  /"
          aria-label="Search flows"
          aria-keyshortcuts="/"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' && shown.length) {
              e.preventDefault();
              list.current?.focus();
            }
            if (e.key === 'Enter' && shown.length === 1) open(shown[0]);
          }}
        />
        <button className="primary" aria-keyshortcuts="n" title="New flow (n)" onClick={() => setDialog({ kind: 'create' })}>
          New flow
        </button>
      </header>
      <ErrorNote error={flows.error} title="Could not load the flows" />
      {flows.loading && !flows.value && <p className="muted">Loading the flows…</p>}
      {shown.length > 0 && <FlowList ref={list} flows={shown} onOpen={open} onRename={(flow) => setDialog({ kind: 'rename', flow })} onDelete={(flow) => setDialog({ kind: 'delete', flow })} />}
      {flows.value && !shown.length && (
        <p className="empty">{query.trim() ? `No flow matches "${query.trim()}".` : 'No flows yet: create one with New flow (n).'}</p>
      )}
      <p className="keys muted" aria-label="Keyboard shortcuts">
        <kbd>/</kbd> search <kbd>n</kbd> new flow <kbd>↑</kbd> <kbd>↓</kbd> move <kbd>Enter</kbd> open <kbd>F2</kbd> rename <kbd>Del</kbd> delete
      </p>
      {dialog?.kind === 'create' && <CreateFlowDialog onClose={() => setDialog(null)} onCreated={created} />}
      {dialog?.kind === 'rename' && <RenameFlowDialog flow={dialog.flow} onClose={() => setDialog(null)} onRenamed={(f) => changed(`Renamed "${dialog.flow.name}" to "${f.name}"`)} />}
      {dialog?.kind === 'delete' && <DeleteFlowDialog flow={dialog.flow} onClose={() => setDialog(null)} onDeleted={() => changed(`Deleted flow "${dialog.flow.name}"`)} />}
    </section>
  );
}
