import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api/client';

/** How often the bell asks for the unread count while the tab is visible: gentle on the API. */
const POLL_MS = 45_000;

/**
 * The caller's unread count: read at once, every 45 s while the page is visible, and whenever the
 * window regains focus. `set` lets the drawer correct it straight after marking read.
 */
export function useUnreadCount() {
  const [unread, setUnread] = useState(0);
  const refresh = useCallback(async () => {
    try {
      const page = await api<{ unread: number }>('GET', '/notifications', { query: { per_page: 1 }, silent: true });
      setUnread(page.unread);
    } catch {
      /* a missed poll is retried on the next tick; 401 is handled by the client */
    }
  }, []);
  useEffect(() => {
    void refresh();
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') void refresh();
    }, POLL_MS);
    const onFocus = () => void refresh();
    window.addEventListener('focus', onFocus);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('focus', onFocus);
    };
  }, [refresh]);
  return { unread, setUnread, refresh };
}
