import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { App, Avatar, Button, Dropdown, Flex, Grid, Layout, Menu, Tag, Typography, type MenuProps } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { logout, refreshProfile } from '@shared/api/auth';
import { isCustomer } from '@shared/contract/roles';
import { NotificationBell } from '@shared/ui/notifications/NotificationBell';
import { ScreenBoundary } from '@shared/ui/ScreenBoundary';
import { SkipLink } from '@shared/ui/SkipLink';
import { useSession } from '@shared/ui/useSession';
import { portalMenu } from './menu';
import { TabBar } from './TabBar';

// Loaded when first opened: its phone number field brings the world's numbering plans (about 200 KB gzipped).
const ProfileDrawer = lazy(async () => ({ default: (await import('@shared/ui/ProfileDrawer')).ProfileDrawer }));

const { Header, Sider, Content } = Layout;

/**
 * /portal/*: logo, company and role, the role's menu, a sticky top bar; no side panel on phones and
 * tablets, a tab bar at the bottom instead.
 */
export function PortalLayout({ built }: { built: (path: string) => boolean }) {
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const screens = Grid.useBreakpoint();
  const { modal } = App.useApp();
  const [profileOpen, setProfileOpen] = useState(false);
  /** opened at least once: stays mounted so that it can close with its animation */
  const [profileUsed, setProfileUsed] = useState(false);
  const wide = screens.lg ?? true;

  useEffect(() => {
    void refreshProfile().catch(() => undefined);
  }, []);

  if (!session || !isCustomer(session.user.role)) return <Navigate to="/login" replace />;
  const { user, company } = session;

  const go = (path: string) => navigate(path);
  const confirmLogout = () =>
    modal.confirm({
      title: 'Logout',
      content: 'Are you sure you want to logout?',
      okText: 'Logout',
      cancelText: 'Cancel',
      onOk: async () => {
        await logout();
        navigate('/login', { replace: true });
      },
    });

  const isAdmin = user.role === 'Company-Admin';
  const smallOnly = !wide;
  const topItems: MenuProps['items'] = [
    { key: '/portal', label: 'Home' },
    ...(user.state !== 'Verified' && built('/portal/kycverifications')
      ? [{ key: '/portal/kycverifications', label: 'KYC Verification' }]
      : []),
    ...(smallOnly && built('/portal/wallet-loads') ? [{ key: '/portal/wallet-loads', label: 'Wallet Loads' }] : []),
    // No side menu on phones: its wallet entries are reachable from here too.
    ...(smallOnly && built('/portal/wallet-transfers')
      ? [{ key: '/portal/wallet-transfers', label: 'Wallet Transfers' }]
      : []),
    ...(smallOnly && user.entities.includes('momo') && built('/portal/momo-loads')
      ? [{ key: '/portal/momo-loads', label: 'Momo Wallet Load' }]
      : []),
    ...(smallOnly && built('/portal/prepaid-cards') ? [{ key: '/portal/prepaid-cards', label: 'Prepaid Cards' }] : []),
    ...(smallOnly && built('/portal/wallet-transactions')
      ? [{ key: '/portal/wallet-transactions', label: 'Reports' }]
      : []),
    ...(smallOnly && isAdmin ? [{ key: '/portal/users', label: 'Users' }] : []),
    ...(smallOnly && isAdmin && built('/portal/apisettings')
      ? [{ key: '/portal/apisettings', label: 'API Settings' }]
      : []),
    ...(smallOnly && built('/portal/faq') ? [{ key: '/portal/faq', label: 'FAQ' }] : []),
    { key: '/portal/help-desk', label: 'Help Desk' },
    { key: 'profile', label: 'Profile', icon: <UserOutlined /> },
    { type: 'divider' },
    { key: 'logout', label: 'Logout', icon: <LogoutOutlined />, danger: true },
  ];
  const onTopMenu: MenuProps['onClick'] = ({ key }) => {
    if (key === 'profile') {
      setProfileUsed(true);
      setProfileOpen(true);
    } else if (key === 'logout') confirmLogout();
    else go(key);
  };

  const selected = location.pathname.replace(/\/$/, '') || '/portal';
  const menuItems = portalMenu(user, built);

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <SkipLink />
      {wide && (
        <Sider width={248} style={{ position: 'sticky', top: 0, height: '100vh', overflow: 'auto' }}>
          <div style={{ padding: '20px 20px 12px' }}>
            <img src="/logo-light.svg" alt="Cardwallet" height={32} />
            <div style={{ marginTop: 16, color: '#cbd5e1' }}>
              {company && (
                <Typography.Text strong style={{ color: '#fff', display: 'block' }} ellipsis>
                  {company.company_name}
                </Typography.Text>
              )}
              <Tag color="blue" style={{ marginTop: 6 }}>
                {user.role}
              </Tag>
            </div>
          </div>
          <nav aria-label="Main menu">
            <Menu
              theme="dark"
              mode="inline"
              selectedKeys={[selected]}
              defaultOpenKeys={['wallet', 'reports', 'more']}
              items={menuItems}
              onClick={({ key }) => go(key)}
            />
          </nav>
        </Sider>
      )}
      <Layout>
        <Header
          style={{
            position: 'sticky',
            top: 0,
            zIndex: 10,
            padding: wide ? '0 24px' : '0 12px',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            borderBottom: '1px solid #e5e7eb',
          }}
        >
          {wide ? <span /> : <img src="/logo.svg" alt="Cardwallet" height={28} />}
          <Flex align="center" gap={4}>
            <NotificationBell />
            <Dropdown menu={{ items: topItems, onClick: onTopMenu }} trigger={['click']} placement="bottomRight">
              <Button type="text" aria-label={wide ? undefined : 'Account menu'} style={{ height: 48 }}>
                <Flex align="center" gap={8}>
                  <Avatar aria-hidden style={{ background: '#1d4ed8' }}>
                    {user.first_name.slice(0, 1).toUpperCase()}
                  </Avatar>
                  {wide && (
                    <span>
                      {user.first_name} {user.last_name}
                      <span className="cw-sr-only">, account menu</span>
                    </span>
                  )}
                </Flex>
              </Button>
            </Dropdown>
          </Flex>
        </Header>
        {/* Room under the last row for the tab bar (and the phone's home indicator). */}
        <Content
          id="main"
          tabIndex={-1}
          className={wide ? undefined : 'cw-above-tabbar'}
          style={{ padding: wide ? 24 : 12 }}
        >
          <ScreenBoundary home="/portal">
            <Outlet />
          </ScreenBoundary>
        </Content>
      </Layout>
      {!wide && <TabBar path={selected} menu={menuItems} built={built} go={go} />}
      {profileUsed && (
        <Suspense>
          <ProfileDrawer
            open={profileOpen}
            onClose={() => setProfileOpen(false)}
            onLoggedOut={() => navigate('/login', { replace: true })}
          />
        </Suspense>
      )}
    </Layout>
  );
}
