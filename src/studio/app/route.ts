import { useEffect, useState } from 'react';

// Hash routes, so the host serves one file for every view and a reload keeps the view:
//   #/flows                          the flow list
//   #/flows/<id>[/<tab>[/<sub>]]     a flow: tab `editor` (default), `executions` (sub: an execution id), `webhook`
//   #/executions[/<id>]              every flow's executions, or one
//   #/interfaces[/<id>]              the interfaces, or one's preview

export interface Route {
  /** The first segment: `flows`, `executions`, `interfaces`. */
  view: string;
  /** The decoded segments after it. */
  parts: string[];
}

export function parseRoute(hash: string): Route {
  const [view = 'flows', ...parts] = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  return { view, parts };
}

/** A hash link: `href(['flows', id, 'executions'])`. */
export const href = (parts: string[]) => `#/${parts.map(encodeURIComponent).join('/')}`;

export const navigate = (parts: string[]) => {
  location.hash = href(parts);
};

/** Whether the page may go to `url`; asked before any view sees the hash change. */
export type LeaveGuard = (url: string) => boolean;
let guard: LeaveGuard | null = null;

// Registered as this module loads, with the page's first code and before any view's listener (views load
// later, as chunks), so a refused change reaches none of them: the route is put back as it was.
addEventListener('hashchange', (e) => {
  if (!guard || guard(e.newURL)) return;
  e.stopImmediatePropagation();
  history.replaceState(history.state, '', e.oldURL);
});

/**
 * Sets the guard a hash change must pass (the editor's "leave without saving?"); returns its removal,
 * which leaves a guard set since in place.
 */
export function guardLeaving(g: LeaveGuard): () => void {
  guard = g;
  return () => {
    if (guard === g) guard = null;
  };
}

/** The current route; re-renders on each hash change. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
