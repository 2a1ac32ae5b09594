/** What {@link coalesce} returns. */
export interface Coalesced {
  /** Runs the task now, or once more after the run in progress: requests during a run fold into one rerun. */
  request(): void;
  /** Settles once no run is in progress (for a clean stop). */
  idle(): Promise<void>;
}

/**
 * One run of `task` at a time, however often it is asked for: a change seen while a run is under way asks for
 * one more run afterwards (that run sees every change so far), never for one per change. A failed run goes to
 * `onError` and does not stop later ones.
 * @example
 * const resync = coalesce(() => scheduler.sync(), onError)
 * watch(resync.request)
 */
export function coalesce(task: () => Promise<unknown>, onError: (err: unknown) => void): Coalesced {
  let running: Promise<void> | null = null;
  let again = false;
  const request = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = task()
      .then(() => {}, onError)
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          request();
        }
      });
  };
  return { request, idle: async () => void (await running) };
}
