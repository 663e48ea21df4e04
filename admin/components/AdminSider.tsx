import { UnorderedListOutlined } from '@ant-design/icons';
import { useThemedLayoutContext } from '@refinedev/antd';
import { type TreeMenuItem, useMenu } from '@refinedev/core';
import { useQuery } from '@tanstack/react-query';
import { Badge, Drawer, Flex, Grid, Layout, Menu, type MenuProps, theme } from 'antd';
import { apiData } from '@shared/api/client';
import { Link } from 'react-router';
import { AdminTitle } from './AdminTitle';

type Item = Required<MenuProps>['items'][number];

/** Menu entries that show how many things wait for staff, by the attention count they read. */
const COUNTED: Record<string, string> = { approvals: 'approvals_pending' };

function toItems(tree: TreeMenuItem[], counts: Record<string, number>): Item[] {
  return tree.map((item): Item => {
    const label = item.label ?? item.name;
    if (item.children.length > 0)
      return { key: item.key, icon: item.meta?.icon, label, children: toItems(item.children, counts) };
    const count = COUNTED[item.name] ? (counts[COUNTED[item.name]!] ?? 0) : 0;
    return {
      key: item.key,
      icon: item.meta?.icon ?? <UnorderedListOutlined />,
      label: (
        <Link to={item.route ?? '/admin'}>
          {count > 0 ? (
            <Flex justify="space-between" align="center" gap={8}>
              <span>{label}</span>
              <Badge count={count} aria-label={`${count} waiting`} />
            </Flex>
          ) : (
            label
          )}
        </Link>
      ),
    };
  });
}

/**
 * The side menu (logo, role, the §2.3 groups, all open): a collapsible sider on wide screens,
 * a drawer opened from the top bar's menu button on phones and tablets.
 */
export function AdminSider() {
  const { token } = theme.useToken();
  const { siderCollapsed, setSiderCollapsed, mobileSiderOpen, setMobileSiderOpen } = useThemedLayoutContext();
  const { menuItems, selectedKey } = useMenu();
  const screens = Grid.useBreakpoint();
  const isMobile = screens.lg === false;
  // The dashboard's attention counts, shared with its tiles (one query key).
  const attention = useQuery({
    queryKey: ['admin', 'attention'],
    queryFn: () => apiData<Record<string, number>>('GET', '/admin/attention', { silent: true }),
    refetchInterval: 60_000,
  });
  const items = toItems(menuItems, attention.data ?? {});
  const groups = menuItems.filter((i) => i.children.length > 0).map((i) => i.key);

  const menu = (collapsed: boolean) => (
    <Menu
      mode="inline"
      // A smaller indent than antd's 24 px: the longest labels ("Wallet Transactions") fit whole.
      inlineIndent={16}
      items={items}
      selectedKeys={selectedKey ? [selectedKey] : []}
      defaultOpenKeys={collapsed ? [] : groups}
      onClick={() => setMobileSiderOpen(false)}
      style={{ border: 'none', paddingTop: 8 }}
    />
  );
  const title = (collapsed: boolean) => (
    <div
      style={{
        padding: collapsed ? '8px 0' : '8px 16px',
        display: 'flex',
        justifyContent: collapsed ? 'center' : 'flex-start',
      }}
    >
      <AdminTitle collapsed={collapsed} />
    </div>
  );

  if (isMobile) {
    return (
      <Drawer
        open={mobileSiderOpen}
        onClose={() => setMobileSiderOpen(false)}
        placement="left"
        width={272}
        closable={false}
        styles={{ body: { padding: 0 } }}
        aria-label="Menu"
      >
        <nav aria-label="Main menu">
          {title(false)}
          {menu(false)}
        </nav>
      </Drawer>
    );
  }
  return (
    <Layout.Sider
      width={248}
      collapsible
      collapsed={siderCollapsed}
      onCollapse={(c) => setSiderCollapsed(c)}
      style={{
        background: token.colorBgContainer,
        borderRight: `1px solid ${token.colorBorderSecondary}`,
        position: 'sticky',
        top: 0,
        height: '100vh',
        overflow: 'auto',
      }}
      theme="light"
    >
      <nav aria-label="Main menu">
        {title(siderCollapsed)}
        {menu(siderCollapsed)}
      </nav>
    </Layout.Sider>
  );
}
