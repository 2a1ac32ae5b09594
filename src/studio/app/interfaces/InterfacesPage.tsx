import { api } from '../api.js';
import { href } from '../route.js';
import { ErrorNote } from '../ui/parts.js';
import { InterfaceList } from './InterfaceList.js';
import { LogsPanel } from './LogsPanel.js';
import { PreviewPanel } from './PreviewPanel.js';
import type { InterfaceInfo } from './types.js';
import { usePolled } from './usePolled.js';

/** How often the list is read again: deploys and previews started from the CLI show up by themselves. */
const LIST_MS = 5000;

/** The organization's interfaces with their deploy status; `id` (by id or name) opens one's live preview and logs. */
export function InterfacesPage({ id }: { id?: string }) {
  const list = usePolled((signal) => api.get<InterfaceInfo[]>('/interfaces', signal), LIST_MS, []);
  const item = id ? list.value?.find((i) => i.id === id || i.name === id) : undefined;
  return (
    <section className="page interfaces">
      <header className="page-head">
        {id && (
          <a href={href(['interfaces'])} className="back">
            Interfaces
          </a>
        )}
        <h1>{item?.name ?? 'Interfaces'}</h1>
      </header>
      <ErrorNote error={list.error} title="Could not load the interfaces" />
      {list.value && <InterfaceList items={list.value} selected={id} />}
      {id && list.value && !item && <p className="empty">No interface "{id}".</p>}
      {item && (
        <div className="interface-view" key={item.id}>
          <PreviewPanel item={item} onStarted={list.reload} />
          <LogsPanel id={item.id} />
        </div>
      )}
    </section>
  );
}
