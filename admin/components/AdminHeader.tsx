import { LogoutOutlined, MenuOutlined, UserOutlined } from '@ant-design/icons';
import { useThemedLayoutContext } from '@refinedev/antd';
import { useLogout } from '@refinedev/core';
import { App, Avatar, Button, Dropdown, Flex, Grid, Layout } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { NotificationBell } from '@shared/ui/notifications/NotificationBell';
import { ProfileDrawer } from '@shared/ui/ProfileDrawer';
import { useSession } from '@shared/ui/useSession';

/** The back-office top bar: the menu button on small screens, the staff member, Profile and Logout. */
export function AdminHeader() {
  const session = useSession();
  const { mutate: logout } = useLogout();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const screens = Grid.useBreakpoint();
  const [profileOpen, setProfileOpen] = useState(false);
  const { setMobileSiderOpen } = useThemedLayoutContext();
  if (!session) return null;
  const compact = screens.lg === false;
  const { user } = session;
  return (
    <Layout.Header
      style={{
        position: 'sticky',
        top: 0,
        zIndex: 10,
        display: 'flex',
        justifyContent: compact ? 'space-between' : 'flex-end',
        alignItems: 'center',
        padding: compact ? '0 12px' : '0 24px',
        borderBottom: '1px solid #e5e7eb',
        background: '#fff',
      }}
    >
      {compact && (
        <Flex align="center" gap={8}>
          <Button
            type="text"
            size="large"
            icon={<MenuOutlined />}
            aria-label="Open menu"
            onClick={() => setMobileSiderOpen(true)}
          />
          <img src="/logo.svg" alt="Cardwallet" height={26} />
        </Flex>
      )}
      <Flex align="center" gap={4}>
        <NotificationBell />
        <Dropdown
          trigger={['click']}
          placement="bottomRight"
          menu={{
            items: [
              { key: 'profile', label: 'Profile', icon: <UserOutlined /> },
              { type: 'divider' },
              { key: 'logout', label: 'Logout', icon: <LogoutOutlined />, danger: true },
            ],
            onClick: ({ key }) => {
              if (key === 'profile') setProfileOpen(true);
              if (key === 'logout') {
                modal.confirm({
                  title: 'Logout',
                  content: 'Are you sure you want to logout?',
                  okText: 'Logout',
                  onOk: () => logout(),
                });
              }
            },
          }}
        >
          <Button type="text" aria-label={screens.md ? undefined : 'Account menu'} style={{ height: 48 }}>
            <Flex align="center" gap={8}>
              <Avatar aria-hidden style={{ background: '#1d4ed8' }}>
                {user.first_name.slice(0, 1).toUpperCase()}
              </Avatar>
              {screens.md && (
                <span>
                  {user.first_name} {user.last_name}
                  <span className="cw-sr-only">, account menu</span>
                </span>
              )}
            </Flex>
          </Button>
        </Dropdown>
      </Flex>
      <ProfileDrawer
        open={profileOpen}
        onClose={() => setProfileOpen(false)}
        onLoggedOut={() => navigate('/login', { replace: true })}
      />
    </Layout.Header>
  );
}
