import {
  ApiOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  CreditCardOutlined,
  ExceptionOutlined,
  MobileOutlined,
  QuestionCircleOutlined,
  TeamOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import type { MenuProps } from 'antd';
import type { ApiUser } from '@shared/contract';

type Item = Required<MenuProps>['items'][number];

interface Entry {
  key: string;
  label: string;
  icon?: React.ReactNode;
  children?: Entry[];
}

/** The five menu variants of the portal, from role, verification and the momo entity. */
function menuVariant(user: ApiUser): 1 | 2 | 3 | 4 | 5 {
  const momo = user.entities.includes('momo');
  if (user.role === 'Company-Admin') {
    if (user.state !== 'Verified') return 3;
    return momo ? 1 : 2;
  }
  return momo ? 4 : 5;
}

export function portalMenu(user: ApiUser, built: (path: string) => boolean): Item[] {
  const variant = menuVariant(user);
  const large = variant <= 3;
  const momo = variant === 1 || variant === 4;
  const entries: Entry[] = [
    { key: '/portal', label: 'Dashboard', icon: <AppstoreOutlined /> },
    {
      key: 'wallet',
      label: 'Wallet Management',
      icon: <WalletOutlined />,
      children: [
        { key: '/portal/wallet-loads', label: 'Wallet Loads' },
        { key: '/portal/wallet-transfers', label: 'Wallet Transfers' },
      ],
    },
    { key: '/portal/prepaid-cards', label: 'Prepaid Cards', icon: <CreditCardOutlined /> },
    { key: '/portal/disputes', label: 'Card Disputes', icon: <ExceptionOutlined /> },
    ...(large ? [{ key: '/portal/users', label: 'Users', icon: <TeamOutlined /> }] : []),
    {
      key: 'reports',
      label: 'Reports',
      icon: <BarChartOutlined />,
      children: [
        { key: '/portal/wallet-transactions', label: 'Wallet Transactions' },
        { key: '/portal/card-transactions', label: 'Card Transactions' },
        { key: '/portal/card-spending', label: 'Card Spending' },
      ],
    },
    ...(large ? [{ key: '/portal/apisettings', label: 'API Settings', icon: <ApiOutlined /> }] : []),
    ...(momo ? [{ key: '/portal/momo-loads', label: 'Momo Wallet Load', icon: <MobileOutlined /> }] : []),
    {
      key: 'more',
      label: 'More',
      icon: <QuestionCircleOutlined />,
      children: [
        { key: '/portal/faq', label: 'FAQ' },
        { key: '/portal/help-desk', label: 'Help Desk' },
      ],
    },
  ];
  // Screens that are not part of the product yet stay out of the menu.
  const prune = (list: Entry[]): Entry[] =>
    list
      .map((e) => (e.children ? { ...e, children: prune(e.children) } : e))
      .filter((e) => (e.children ? e.children.length > 0 : built(e.key)));
  const toItem = (e: Entry): Item =>
    e.children
      ? { key: e.key, label: e.label, icon: e.icon, children: e.children.map(toItem) }
      : { key: e.key, label: e.label, icon: e.icon };
  return prune(entries).map(toItem);
}
