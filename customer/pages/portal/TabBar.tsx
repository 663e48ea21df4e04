import { AppstoreOutlined, CreditCardOutlined, EllipsisOutlined, WalletOutlined } from '@ant-design/icons';
import { Drawer, Menu, type MenuProps } from 'antd';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import './tabbar.css';

interface Tab {
  to: string;
  label: string;
  icon: ReactNode;
  /** the screens under this tab, for the highlight */
  owns: (path: string) => boolean;
}

const TABS: Tab[] = [
  { to: '/portal', label: 'Dashboard', icon: <AppstoreOutlined />, owns: (p) => p === '/portal' },
  {
    to: '/portal/wallet-loads',
    label: 'Wallet',
    icon: <WalletOutlined />,
    owns: (p) => /^\/portal\/(wallet-loads|wallet-transfers|momo-loads)$/.test(p),
  },
  {
    to: '/portal/prepaid-cards',
    label: 'Cards',
    icon: <CreditCardOutlined />,
    owns: (p) => p.startsWith('/portal/prepaid-cards'),
  },
];

/**
 * Phones and tablets (no side menu): the main sections one tap away at the bottom, where a thumb
 * reaches; More opens the whole portal menu for the rest.
 */
export function TabBar({
  path,
  menu,
  built,
  go,
}: {
  path: string;
  menu: MenuProps['items'];
  built(p: string): boolean;
  go(p: string): void;
}) {
  const [more, setMore] = useState(false);
  const tabs = TABS.filter((t) => built(t.to));
  const inTab = tabs.some((t) => t.owns(path));
  // The tabs' own screens are not repeated under More (the wallet's group stays: Wallet Transfers is only there).
  const rest = menu?.filter((item) => !tabs.some((t) => t.to === item?.key));
  return (
    <>
      <nav className="cw-tabbar" aria-label="Sections">
        {tabs.map((t) => {
          const current = t.owns(path);
          return (
            <Link
              key={t.to}
              to={t.to}
              className="cw-tab"
              aria-current={current ? 'page' : undefined}
              data-current={current || undefined}
            >
              <span aria-hidden>{t.icon}</span>
              <span>{t.label}</span>
            </Link>
          );
        })}
        <button
          type="button"
          className="cw-tab"
          aria-expanded={more}
          aria-haspopup="dialog"
          data-current={!inTab || undefined}
          onClick={() => setMore(true)}
        >
          <span aria-hidden>
            <EllipsisOutlined />
          </span>
          <span>More</span>
        </button>
      </nav>
      <Drawer
        open={more}
        onClose={() => setMore(false)}
        placement="bottom"
        title="More"
        height="auto"
        styles={{ body: { padding: '0 0 env(safe-area-inset-bottom)' } }}
      >
        <nav aria-label="More sections">
          <Menu
            mode="inline"
            selectedKeys={[path]}
            defaultOpenKeys={['wallet', 'reports', 'more']}
            items={rest}
            style={{ border: 'none' }}
            onClick={({ key }) => {
              setMore(false);
              go(key);
            }}
          />
        </nav>
      </Drawer>
    </>
  );
}
