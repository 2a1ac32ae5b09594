// A small server-sent events client over fetch: reads a stream event by event, as a browser's EventSource would.

export interface SseEvent {
  id?: string;
  event: string;
  data: any;
}

/** Opens an event stream; `next()` resolves with the next event, or null once the server ended the stream. */
export async function openEvents(url: string, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  const res = await fetch(url, { headers, signal: abort.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  async function next(): Promise<SseEvent | null> {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const fields: Record<string, string> = {};
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) continue;
          const at = line.indexOf(': ');
          fields[line.slice(0, at)] = (fields[line.slice(0, at)] ? `${fields[line.slice(0, at)]}\n` : '') + line.slice(at + 2);
        }
        if (fields.data === undefined) continue; // a comment (heartbeat)
        return { id: fields.id, event: fields.event ?? 'message', data: JSON.parse(fields.data) };
      }
      const { done, value } = await reader.read();
      if (done) return null;
      buffer += decoder.decode(value, { stream: true });
    }
  }
  return {
    status: res.status,
    headers: res.headers,
    next,
    /** Reads until `stop(event)` holds (that event included) or the stream ends. */
    async until(stop: (e: SseEvent) => boolean): Promise<SseEvent[]> {
      const seen: SseEvent[] = [];
      for (let e = await next(); e; e = await next()) {
        seen.push(e);
        if (stop(e)) break;
      }
      return seen;
    },
    /** Drops the connection, as a client that goes away. */
    drop: () => abort.abort(),
  };
}
