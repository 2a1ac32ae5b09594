import { useState } from 'react';
import { href, navigate } from '../route.js';
import type { ExecutionStatus } from '../types.js';
import { ExecutionTable, StatusFilter } from './ExecutionList.js';
import { ExecutionView } from './ExecutionView.js';
import { useExecutionList } from './listing.js';

/** Every flow's executions, newest first, one page at a time; or, with an id, that execution. */
export function ExecutionsPage({ id }: { id?: string }) {
  if (id) {
    return (
      <section className="page exec-page">
        <header className="page-head">
          <a href={href(['executions'])} className="back">
            Executions
          </a>
        </header>
        <ExecutionView id={id} onOpen={(r) => navigate(['executions', r.id])} />
      </section>
    );
  }
  return <AllExecutions />;
}

function AllExecutions() {
  const [status, setStatus] = useState<ExecutionStatus>();
  const list = useExecutionList({ status });
  return (
    <section className="page">
      <header className="page-head">
        <h1>Executions</h1>
        <StatusFilter value={status} onChange={setStatus} />
        <button onClick={list.reload}>Refresh</button>
      </header>
      <ExecutionTable list={list} showFlow onOpen={(r) => navigate(['executions', r.id])} />
    </section>
  );
}
