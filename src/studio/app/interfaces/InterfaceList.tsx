import { href } from '../route.js';
import { Status, when } from '../ui/parts.js';
import type { InterfaceInfo } from './types.js';

/** Bytes as people read them: `812 B`, `14.2 KB`. */
const size = (n: number) => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

/** The interfaces with their deploy status and whether a preview runs; the name opens one. */
export function InterfaceList({ items, selected }: { items: InterfaceInfo[]; selected?: string }) {
  if (!items.length) return <p className="empty">No interfaces yet: create one with <code>weir interface init --name &lt;name&gt;</code>.</p>;
  return (
    <table className="list" aria-label="Interfaces">
      <thead>
        <tr>
          <th>Name</th>
          <th>Type</th>
          <th>Deploy</th>
          <th>Preview</th>
        </tr>
      </thead>
      <tbody>
        {items.map((i) => (
          <tr key={i.id} aria-selected={selected === i.id || selected === i.name}>
            <td>
              <a href={href(['interfaces', i.id])}>{i.name}</a>
              {i.description && <div className="muted">{i.description}</div>}
            </td>
            <td>{i.type}</td>
            <td>
              {i.deployed ? (
                <>
                  <span className="status status-success">deployed</span> v{i.deployed.version} <span className="muted">{when(i.deployed.at)} · {i.deployed.files} files, {size(i.deployed.bytes)}</span>
                </>
              ) : (
                <span className="status status-draft">not deployed</span>
              )}
            </td>
            <td>{i.previewUrl ? <Status value="running" /> : <span className="muted">—</span>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
