/** The callbacks waiting on each signal, all served by the one listener {@link onAbort} added to it. */
const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `fn` once `signal` aborts (at once when it already has) and returns a function that forgets it.
 * Every callback of a signal shares one listener: adding and removing a listener on Node's `EventTarget`
 * costs about a microsecond each, which a request or a run waiting on a host-wide signal would pay twice.
 * @example
 * const forget = onAbort(shutdown, () => req.destroy())
 * // ...the request ended
 * forget()
 */
export function onAbort(signal: AbortSignal, fn: () => void): () => void {
  if (signal.aborted) {
    fn();
    return forgetNothing;
  }
  let fns = waiting.get(signal);
  if (!fns) {
    const all = new Set<() => void>();
    waiting.set(signal, (fns = all));
    signal.addEventListener('abort', () => all.forEach((f) => f()), { once: true });
  }
  fns.add(fn);
  const set = fns;
  return () => void set.delete(fn);
}

const forgetNothing = () => {};
