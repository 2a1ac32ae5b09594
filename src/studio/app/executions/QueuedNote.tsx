import { useEffect, useState } from 'react';
import { api, seg } from '../api.js';
import type { ExecutionPage, ExecutionRecord, WorkflowConfig } from '../types.js';
import { executionHref } from './Lineage.js';
import type { Inspected } from './record.js';

type QueuedFor = NonNullable<ExecutionRecord['queuedFor']>;
type Settings = NonNullable<WorkflowConfig['settings']>;

/** Queued executions of a flow read to count the ones ahead (more are counted as "500+"). */
const LISTED = 500;
const POLL_MS = 2000;

/**
 * The rule a queued execution waits for, in a few words, with its numbers when the flow's settings are known
 * and the key: what a row of the executions list says.
 * @example
 * queuedRule({ rule: 'concurrency', key: 't1' }, { concurrency: { limit: 2 } }) // 'Queued: concurrency limit 2 for key “t1”'
 */
export function queuedRule({ rule, key }: QueuedFor, settings?: Settings): string {
  const forKey = key === null ? '' : ` for key “${key}”`;
  if (rule === 'concurrency') return `Queued: concurrency limit${settings?.concurrency ? ` ${settings.concurrency.limit}` : ''}${forKey}`;
  if (rule === 'rateLimit') return `Queued: rate limit${settings?.rateLimit ? ` ${settings.rateLimit.limit} per ${settings.rateLimit.period}` : ''}${forKey}`;
  return `Queued: debounce${settings?.debounce ? ` ${settings.debounce.period}` : ''}${forKey}`;
}

/**
 * Why a queued execution waits, in words: {@link queuedRule}, how many of its key arrived before it, and
 * when it starts.
 * @example
 * queuedReason({ rule: 'concurrency', key: 't1' }, { concurrency: { limit: 2 } }, '3') // 'Queued: concurrency limit 2 for key “t1” (3 ahead): starts when a running one ends'
 */
export function queuedReason(queuedFor: QueuedFor, settings?: Settings, ahead?: string): string {
  const inLine = ahead === undefined ? '' : ahead === '0' ? ' (next in line)' : ` (${ahead} ahead)`;
  const head = queuedRule(queuedFor, settings) + inLine;
  if (queuedFor.rule === 'concurrency') return `${head}${settings?.concurrency ? ': starts when a running one ends' : ''}`;
  if (queuedFor.rule === 'rateLimit') return `${head}: starts when the limit allows`;
  const d = settings?.debounce;
  return `${head}${d ? `: runs once no delivery came for ${d.period}${d.maxWait ? ` (at most ${d.maxWait} after the first)` : ''}, with the last input` : ''}`;
}

/** How many queued executions of the same rule and key arrived before `record` ("500+" past one page). */
async function aheadOf(record: Inspected, signal: AbortSignal): Promise<string> {
  const page = await api.get<ExecutionPage>(`/executions?workflow=${seg(record.workflowId)}&status=queued&limit=${LISTED}&maxValueBytes=0`, signal);
  const same = (r: ExecutionRecord) => r.queuedFor?.rule === record.queuedFor?.rule && r.queuedFor?.key === record.queuedFor?.key;
  const before = (r: ExecutionRecord) => r.startedAt < record.startedAt || (r.startedAt === record.startedAt && r.id < record.id);
  const n = page.items.filter((r) => r.id !== record.id && same(r) && before(r)).length;
  return page.nextCursor ? `${n}+` : String(n);
}

/**
 * Above a queued execution: why it waits (read again every 2 s while it does); above a debounced one: the
 * execution its burst ran as.
 */
export function QueuedNote({ record, settings }: { record: Inspected; settings?: Settings }) {
  const [ahead, setAhead] = useState<{ of: string; n: string }>();
  const counted = record.status === 'queued' && record.queuedFor && record.queuedFor.rule !== 'debounce';
  useEffect(() => {
    if (!counted) return;
    const ctl = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = () =>
      aheadOf(record, ctl.signal)
        .then((n) => !ctl.signal.aborted && setAhead({ of: record.id, n }))
        // The count is a detail: the reason reads without it.
        .catch(() => {})
        .finally(() => !ctl.signal.aborted && (timer = setTimeout(read, POLL_MS)));
    void read();
    return () => {
      ctl.abort();
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [record.id, counted]);

  if (record.status === 'debounced' && record.debouncedInto) {
    return (
      <p className="exec-queued" role="status" aria-label="Why debounced">
        Debounced: collapsed into <a href={executionHref(record.debouncedInto, record.workflowId)}>{record.debouncedInto}</a>, which ran with the last input of its burst.
      </p>
    );
  }
  if (record.status !== 'queued' || !record.queuedFor) return null;
  return (
    <p className="exec-queued" role="status" aria-label="Why queued">
      {queuedReason(record.queuedFor, settings, ahead?.of === record.id ? ahead.n : undefined)}
    </p>
  );
}
