import { SettingOutlined } from '@ant-design/icons';
import { Alert, Button, Drawer, Empty, Flex, Spin, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';
import type { ApiNotification, NotificationPage } from '../../contract';
import { NotificationSettings } from './NotificationSettings';
import { fullWhen, whenText } from './when';

const PER_PAGE = 20;

/** The list, newest first: each entry opens its screen and counts as read; all can be marked read at once. */
export function NotificationDrawer({
  open,
  onClose,
  onUnread,
}: {
  open: boolean;
  onClose: () => void;
  onUnread: (n: number) => void;
}) {
  const navigate = useNavigate();
  const [view, setView] = useState<'list' | 'settings'>('list');
  const [items, setItems] = useState<ApiNotification[]>([]);
  const [page, setPage] = useState(1);
  const [lastPage, setLastPage] = useState(1);
  const [unread, setUnread] = useState(0);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);

  const load = useCallback(
    async (p: number) => {
      setLoading(true);
      setFailed(false);
      try {
        const res = await api<NotificationPage>('GET', '/notifications', {
          query: { page: p, per_page: PER_PAGE },
          silent: true,
        });
        setItems((prev) =>
          p === 1 ? res.data : [...prev, ...res.data.filter((n) => !prev.some((o) => o.id === n.id))],
        );
        setPage(p);
        setLastPage(res.last_page);
        setUnread(res.unread);
        onUnread(res.unread);
      } catch {
        setFailed(true);
      } finally {
        setLoading(false);
      }
    },
    [onUnread],
  );

  useEffect(() => {
    if (open) {
      setView('list');
      void load(1);
    }
  }, [open, load]);

  const markRead = async (ids?: string[]) => {
    const res = await api<{ data: { unread: number } }>('POST', '/notifications/read', { body: ids ? { ids } : {} });
    const at = new Date().toISOString();
    setItems((prev) => prev.map((n) => (!ids || ids.includes(n.id) ? { ...n, read_at: n.read_at ?? at } : n)));
    setUnread(res.data.unread);
    onUnread(res.data.unread);
  };

  const openOne = (n: ApiNotification) => {
    if (!n.read_at) void markRead([n.id]).catch(() => undefined);
    onClose();
    if (n.link) navigate(n.link);
  };

  const title = view === 'list' ? 'Notifications' : 'Notification settings';
  return (
    <Drawer
      title={title}
      open={open}
      onClose={onClose}
      width={Math.min(440, window.innerWidth)}
      extra={
        view === 'list' ? (
          <Button icon={<SettingOutlined />} onClick={() => setView('settings')}>
            Settings
          </Button>
        ) : (
          <Button onClick={() => setView('list')}>Back to list</Button>
        )
      }
    >
      {view === 'settings' ? (
        <NotificationSettings />
      ) : (
        <>
          <Flex justify="space-between" align="center" style={{ marginBottom: 12 }}>
            <Typography.Text type="secondary" aria-live="polite">
              {unread ? `${unread} unread` : 'All caught up'}
            </Typography.Text>
            <Button size="small" disabled={!unread} onClick={() => void markRead()}>
              Mark all as read
            </Button>
          </Flex>
          {failed && (
            <Alert
              type="error"
              showIcon
              message="Notifications could not be loaded."
              action={
                <Button size="small" onClick={() => void load(1)}>
                  Retry
                </Button>
              }
            />
          )}
          {!failed && !loading && items.length === 0 && <Empty description="No notifications yet" />}
          <ul className="cw-notifications" aria-label="Notifications">
            {items.map((n) => (
              <li key={n.id} className={n.read_at ? 'cw-note' : 'cw-note cw-note-unread'}>
                <a
                  href={n.link ?? '#'}
                  onClick={(e) => {
                    e.preventDefault();
                    openOne(n);
                  }}
                >
                  <span className="cw-note-title">
                    {!n.read_at && <span className="cw-note-dot" aria-hidden />}
                    {n.title}
                    {!n.read_at && <span className="cw-sr-only"> (unread)</span>}
                  </span>
                  <span className="cw-note-body">{n.body}</span>
                  <time className="cw-note-time" dateTime={n.created_at} title={fullWhen(n.created_at)}>
                    {whenText(n.created_at)}
                  </time>
                </a>
              </li>
            ))}
          </ul>
          {loading && <Spin style={{ display: 'block', margin: '12px auto' }} aria-label="Loading" />}
          {!loading && page < lastPage && (
            <Button block onClick={() => void load(page + 1)}>
              Load more
            </Button>
          )}
          <style>{CSS}</style>
        </>
      )}
    </Drawer>
  );
}

const CSS = `
.cw-notifications { list-style: none; margin: 0 0 12px; padding: 0; }
.cw-note { border-bottom: 1px solid #e5e7eb; }
.cw-note a { display: flex; flex-direction: column; gap: 2px; padding: 10px 8px 10px 12px; color: #1f2937; border-left: 3px solid transparent; }
.cw-note a:hover, .cw-note a:focus-visible { background: #f3f4f6; }
.cw-note-unread a { border-left-color: #1d4ed8; background: #eff6ff; }
.cw-note-title { font-weight: 500; display: flex; align-items: center; gap: 6px; }
.cw-note-unread .cw-note-title { font-weight: 600; }
.cw-note-dot { width: 8px; height: 8px; border-radius: 50%; background: #1d4ed8; flex: none; }
.cw-note-body { color: #374151; white-space: pre-line; overflow-wrap: anywhere; font-size: 13px; }
.cw-note-time { color: #4b5563; font-size: 12px; }
`;
