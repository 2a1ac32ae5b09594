import { when } from '../ui/parts.js';
import type { CapturedRequest } from './types.js';

/** A JSON value as people read it; a body that was not JSON is shown as the text it was. */
const pretty = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2));

/** Name/value rows of headers or query parameters; a repeated query parameter lists its values. */
function Pairs({ label, pairs }: { label: string; pairs: Record<string, string | string[]> }) {
  const entries = Object.entries(pairs);
  if (!entries.length) return <p className="muted">No {label.toLowerCase()}.</p>;
  return (
    <table className="pairs" aria-label={label}>
      <tbody>
        {entries.map(([name, value]) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            <td>{Array.isArray(value) ? value.join(', ') : value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The request the capture session caught: method, time, the body pretty-printed, query and headers. */
export function CapturedRequestView({ request }: { request: CapturedRequest }) {
  return (
    <div className="captured" aria-label="Captured request" role="region">
      <p>
        <strong className="method">{request.method}</strong> <span className="muted">captured {when(request.capturedAt)}</span>
      </p>
      <h4>Body</h4>
      {request.body === undefined || request.body === null || request.body === '' ? (
        <p className="muted">No body.</p>
      ) : (
        <pre className="json" aria-label="Body">
          {pretty(request.body)}
        </pre>
      )}
      <h4>Query</h4>
      <Pairs label="Query" pairs={request.query} />
      <h4>Headers</h4>
      <Pairs label="Headers" pairs={request.headers} />
    </div>
  );
}
