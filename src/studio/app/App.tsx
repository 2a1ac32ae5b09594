import { lazy, Suspense, useEffect, type ComponentType } from 'react';
import { api, ApiError, PREFIX } from './api.js';
import { FlowsPage } from './flows/FlowsPage.js';
import { href, useRoute, type Route } from './route.js';
import { SignedOut, useSignedOut } from './ui/SignedOut.js';
import { ErrorNote } from './ui/parts.js';
import { ToastProvider } from './ui/toast.js';

const SECTIONS = [
  { view: 'flows', title: 'Flows', icon: 'M4 6h5v4H4zM15 14h5v4h-5zM9 8h3v8h3' },
  { view: 'executions', title: 'Executions', icon: 'M8 5v14l11-7z' },
  { view: 'interfaces', title: 'Interfaces', icon: 'M3 5h18v12H3zM8 21h8M12 17v4' },
];

// The flow list is in the first load; every other view is a chunk fetched when first opened (and fetched ahead
// once the page is idle), so the graph canvas and layout code, most of the bundle, never delay the list.
// Stylesheets are imported in main.tsx only: a lazy chunk's own CSS would not be loaded.
const VIEWS = {
  FlowPage: () => import('./flow/FlowPage.js').then((m) => m.FlowPage),
  ExecutionsPage: () => import('./executions/ExecutionsPage.js').then((m) => m.ExecutionsPage),
  InterfacesPage: () => import('./interfaces/InterfacesPage.js').then((m) => m.InterfacesPage),
};
const FlowPage = lazyView(VIEWS.FlowPage);
const ExecutionsPage = lazyView(VIEWS.ExecutionsPage);
const InterfacesPage = lazyView(VIEWS.InterfacesPage);

/**
 * A view loaded on first use. A chunk the host refuses (the token cookie is gone) signs the page out: the
 * check below asks the API, whose refusal shows the sign-in view; any other failure is shown where the view goes.
 */
function lazyView<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(async () => {
    try {
      return { default: await load() };
    } catch (err) {
      const signedIn = await api.get('/templates').then(() => true, () => false);
      const error = new ApiError(0, 'LOAD', `could not load this view (${(err as Error).message})`, undefined, signedIn ? ['reload the page: the host may have been updated'] : []);
      return { default: () => <ErrorNote error={error} title="Could not open this view" /> };
    }
  });
}

/** Fetches the views' code while the page has nothing else to do, so opening one waits for no download. */
function usePrefetchViews() {
  useEffect(() => {
    const prefetch = () => {
      // A failure here is met again, and shown, when the view is opened.
      for (const load of Object.values(VIEWS)) load().catch(() => undefined);
    };
    // Safari has no requestIdleCallback: a short delay lets the first view settle instead.
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(prefetch, 500);
      return () => clearTimeout(timer);
    }
    const idle = requestIdleCallback(prefetch);
    return () => cancelIdleCallback(idle);
  }, []);
}

/** The page: the sections on the left, the routed view on the right, toasts over both. */
export function App() {
  const route = useRoute();
  const signedOut = useSignedOut();
  usePrefetchViews();
  return (
    <ToastProvider>
      <div className="app">
        <nav className="sidebar" aria-label="Sections">
          <a className="brand" href={href(['flows'])}>
            weir <span>Studio</span>
          </a>
          {SECTIONS.map((s) => (
            <a key={s.view} href={href([s.view])} aria-current={route.view === s.view ? 'page' : undefined}>
              <svg viewBox="0 0 24 24" aria-hidden="true">
                <path d={s.icon} />
              </svg>
              {s.title}
            </a>
          ))}
          <span className="sidebar-host" title="The host this Studio manages">
            {location.host}
            {PREFIX}
          </span>
        </nav>
        <main className="main">
          {signedOut ? (
            <SignedOut status={signedOut} />
          ) : (
            <Suspense fallback={<p className="page muted">Loading…</p>}>
              <View route={route} />
            </Suspense>
          )}
        </main>
      </div>
    </ToastProvider>
  );
}

/** The view a route names. */
function View({ route: { view, parts } }: { route: Route }) {
  if (view === 'flows' && parts.length === 0) return <FlowsPage />;
  if (view === 'flows') return <FlowPage id={parts[0]} tab={parts[1] ?? 'editor'} sub={parts[2]} />;
  if (view === 'executions') return <ExecutionsPage id={parts[0]} />;
  if (view === 'interfaces') return <InterfacesPage id={parts[0]} />;
  return <p className="empty page">No page "{view}". Choose a section on the left.</p>;
}
