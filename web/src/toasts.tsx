// One toast per transaction: waiting for the wallet's signature, pending, then mined or failed, with the
// transaction's hash (a link to the explorer when one is configured). A mined toast leaves by itself after a while;
// a failed one stays until closed, so its reason can be read; any can be closed (closing a pending one only hides it).
// The toasts never cover the page: the page gets room below it as tall as they are (padding and scroll padding), so
// a button under them scrolls above them, and one scrolled into view (focus, a jump) stops above them.
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { ErrorDetails } from './errors';
import { short } from './format';
import { useChainInfo } from './wallet';

export type ToastState = 'signing' | 'pending' | 'mined' | 'failed';

export interface Toast {
  id: number;
  title: string;
  state: ToastState;
  hash?: string;
  /** What happened, in words (a failure's sentence). */
  detail?: string;
  /** A failure's technical text, behind "Details". */
  technical?: string;
}

interface Toasts {
  /** Opens a toast and returns its id. */
  open(title: string): number;
  update(id: number, change: Partial<Omit<Toast, 'id'>>): void;
}

const ToastContext = createContext<Toasts>({ open: () => 0, update: () => {} });
const MINED_VISIBLE_MS = 8_000;

const STATE_LABEL: Record<ToastState, string> = {
  signing: 'Waiting for your signature in the wallet…',
  pending: 'Sent: waiting for it to be mined…',
  mined: 'Mined.',
  failed: 'Failed.',
};

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const close = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const api = useMemo<Toasts>(
    () => ({
      open(title) {
        const id = next.current++;
        setToasts((all) => [...all, { id, title, state: 'signing' }]);
        return id;
      },
      update(id, change) {
        setToasts((all) => all.map((t) => (t.id === id ? { ...t, ...change } : t)));
        if (change.state === 'mined') setTimeout(() => close(id), MINED_VISIBLE_MS);
      },
    }),
    [close],
  );
  const region = useRef<HTMLElement>(null);
  useEffect(() => {
    const element = region.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => {
      const height = element.getBoundingClientRect().height;
      root.style.setProperty('--toasts-room', height > 0 ? `${Math.ceil(height) + 24}px` : '0px');
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--toasts-room');
    };
  }, []);
  return (
    <ToastContext.Provider value={api}>
      {children}
      <section ref={region} className="toasts" aria-label="Transactions" aria-live="polite">
        {toasts.map((t) => (
          <ToastView key={t.id} toast={t} close={() => close(t.id)} />
        ))}
      </section>
    </ToastContext.Provider>
  );
}

function ToastView({ toast, close }: { toast: Toast; close: () => void }) {
  const { explorerUrl } = useChainInfo();
  return (
    <div
      className={`toast ${toast.state}`}
      data-toast={toast.state}
      role={toast.state === 'failed' ? 'alert' : 'status'}
    >
      <p>
        <strong>{toast.title}</strong> {STATE_LABEL[toast.state]}
      </p>
      {toast.detail && <p>{toast.detail}</p>}
      {toast.technical && <ErrorDetails detail={toast.technical} />}
      {toast.hash && (
        <p>
          Transaction{' '}
          {explorerUrl ? (
            <a href={`${explorerUrl}/tx/${toast.hash}`} target="_blank" rel="noreferrer">
              {short(toast.hash)} (explorer)
            </a>
          ) : (
            <code title={toast.hash} data-tx={toast.hash}>
              {short(toast.hash)}
            </code>
          )}
        </p>
      )}
      <button
        type="button"
        className="secondary"
        onClick={close}
        aria-label={
          toast.state === 'signing' || toast.state === 'pending'
            ? `Hide this notice (the ${toast.title.toLowerCase()} goes on)`
            : undefined
        }
      >
        {toast.state === 'signing' || toast.state === 'pending' ? 'Hide' : 'Dismiss'}
      </button>
    </div>
  );
}

export const useToasts = () => useContext(ToastContext);
