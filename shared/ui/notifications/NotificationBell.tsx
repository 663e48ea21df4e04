import { BellOutlined } from '@ant-design/icons';
import { Badge, Button } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useUnreadCount } from './useUnreadCount';

// The list and settings load when first opened: the top bar itself stays light.
const NotificationDrawer = lazy(async () => ({ default: (await import('./NotificationDrawer')).NotificationDrawer }));

/** The bell in both apps' top bars: the unread count, and the drawer with the list. */
export function NotificationBell() {
  const { unread, setUnread, refresh } = useUnreadCount();
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const label = unread ? `Notifications, ${unread} unread` : 'Notifications, none unread';
  return (
    <>
      <Button
        type="text"
        aria-label={label}
        title="Notifications"
        style={{ height: 48, width: 48 }}
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        <Badge count={unread} overflowCount={99} size="small" aria-hidden>
          <BellOutlined style={{ fontSize: 20 }} />
        </Badge>
      </Button>
      {used && (
        <Suspense>
          <NotificationDrawer
            open={open}
            onClose={() => {
              setOpen(false);
              void refresh();
            }}
            onUnread={setUnread}
          />
        </Suspense>
      )}
    </>
  );
}
