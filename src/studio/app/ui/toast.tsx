import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';

/** One short message about an action's result. */
interface Toast {
  id: number;
  text: string;
  kind: 'ok' | 'error';
}

type Show = (text: string, kind?: Toast['kind']) => void;

const ToastContext = createContext<Show>(() => {
  throw new Error('useToast() needs <ToastProvider> above it');
});

/** How long a toast stays: long enough to read a sentence, short enough not to pile up. */
const TOAST_MS = 5000;

/**
 * Holds the page's toasts and draws them in a polite live region (screen readers read them without moving the
 * focus). Above the routes, so a toast outlives the view that showed it (a flow created, then opened).
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const show = useCallback<Show>((text, kind = 'ok') => setToasts((all) => [...all.slice(-3), { id: Date.now() + Math.random(), text, kind }]), []);
  return (
    <ToastContext.Provider value={show}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((t) => (
          <ToastView key={t.id} toast={t} onDismiss={dismiss} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

function ToastView({ toast, onDismiss }: { toast: Toast; onDismiss(id: number): void }) {
  useEffect(() => {
    const timer = setTimeout(() => onDismiss(toast.id), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast.id, onDismiss]);
  return (
    <div className={`toast toast-${toast.kind}`}>
      <span>{toast.text}</span>
      <button className="icon" aria-label="Dismiss" onClick={() => onDismiss(toast.id)}>
        ×
      </button>
    </div>
  );
}

/**
 * Shows a toast: `toast('Flow "orders" deleted')`, or `toast(message, 'error')`.
 * @example
 * const toast = useToast()
 * await api.del(`/workflows/${id}`); toast(`Deleted "${name}"`)
 */
export const useToast = (): Show => useContext(ToastContext);
