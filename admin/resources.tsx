import {
  ApiOutlined,
  AlertOutlined,
  AuditOutlined,
  BarChartOutlined,
  BankOutlined,
  BlockOutlined,
  CheckSquareOutlined,
  CreditCardOutlined,
  ContactsOutlined,
  DashboardOutlined,
  DeleteOutlined,
  DownloadOutlined,
  ExceptionOutlined,
  FlagOutlined,
  LineChartOutlined,
  FileSearchOutlined,
  MobileOutlined,
  PercentageOutlined,
  ReconciliationOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  StopOutlined,
  SwapOutlined,
  TeamOutlined,
  TransactionOutlined,
  UserOutlined,
  UserSwitchOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import type { ResourceProps } from '@refinedev/core';
import { type Permission, can } from '@shared/contract';

/** Settings screens: for who changes them, and the Auditor, who reads everything. */
const SETTINGS = (manage: Permission): Permission[] => [manage, 'audit.read'];

/**
 * The back-office as data: each resource is a menu entry and a set of routes. Menu groups
 * (Verifications, Administration, …) are parent resources without routes, listed in the order
 * of back-office spec §2.3 and added as their screens arrive; a group whose entries are all
 * hidden disappears from the menu. `meta.permission` (one, or a list of which any one will do) hides an
 * entry from roles without it (the route shows the 403 page, see Allowed, and the server refuses too).
 */
const all: ResourceProps[] = [
  {
    name: 'dashboard',
    list: '/admin',
    meta: { label: 'Dashboard', icon: <DashboardOutlined /> },
  },
  { name: 'verifications', meta: { label: 'Verifications', icon: <SafetyCertificateOutlined /> } },
  {
    name: 'verifications-individuals',
    list: '/admin/verifications-individuals',
    show: '/admin/verifications-individuals/:id',
    meta: {
      parent: 'verifications',
      label: 'Individuals List',
      icon: <UserOutlined />,
      path: 'verification/get-individuals',
    },
  },
  {
    name: 'verifications-companies',
    list: '/admin/verifications-companies',
    show: '/admin/verifications-companies/:id',
    meta: {
      parent: 'verifications',
      label: 'Companies List',
      icon: <BankOutlined />,
      path: 'verification/get-companies',
    },
  },
  {
    // Requests that need a second person (issue 33); the menu shows how many wait,
    // after the Verifications (back-office §2.3 puts those first).
    name: 'approvals',
    list: '/admin/approvals',
    meta: { label: 'Approvals', icon: <CheckSquareOutlined />, path: 'approvals' },
  },
  { name: 'administration', meta: { label: 'Administration', icon: <SettingOutlined /> } },
  {
    name: 'fees',
    list: '/admin/fees',
    // A company's fees: /admin/fees/{companyId}
    show: '/admin/fees/:id',
    meta: {
      parent: 'administration',
      label: 'Fees Management',
      icon: <PercentageOutlined />,
      path: 'fees',
      permission: SETTINGS('fees.manage'),
    },
  },
  {
    name: 'administration-admins',
    list: '/admin/administration-admins',
    meta: {
      parent: 'administration',
      label: 'Admin Management',
      icon: <UserSwitchOutlined />,
      path: 'account/admins',
      permission: 'staff.read',
    },
  },
  {
    name: 'approval-policies',
    list: '/admin/approval-policies',
    meta: {
      parent: 'administration',
      label: 'Approval Policies',
      icon: <CheckSquareOutlined />,
      path: 'approval-policies',
      permission: 'approvals.manage',
    },
  },
  {
    name: 'momo',
    list: '/admin/momo',
    meta: {
      parent: 'administration',
      label: 'Momo Management',
      icon: <MobileOutlined />,
      permission: SETTINGS('momo.manage'),
    },
  },
  {
    name: 'audit-logs',
    list: '/admin/audit-logs',
    meta: {
      parent: 'administration',
      label: 'Audit Trail',
      icon: <AuditOutlined />,
      path: 'audit-logs',
      permission: 'audit.read',
    },
  },
  { name: 'wallet-management', meta: { label: 'Wallet Management', icon: <WalletOutlined /> } },
  {
    name: 'card-transfers',
    list: '/admin/card-transfers',
    meta: {
      parent: 'wallet-management',
      label: 'Wallet Transactions',
      icon: <TransactionOutlined />,
      path: 'reports/view-wallet-transactions',
    },
  },
  {
    name: 'wallet-loads',
    list: '/admin/wallet-loads',
    meta: {
      parent: 'wallet-management',
      label: 'Wallet Loads',
      icon: <DownloadOutlined />,
      path: 'wallet/list-topups',
    },
  },
  {
    name: 'wallet-transfers',
    list: '/admin/wallet-transfers',
    meta: {
      parent: 'wallet-management',
      label: 'Wallet Transfers',
      icon: <SwapOutlined />,
      path: 'reports/view-wallet-transfers',
    },
  },
  {
    // Deposits on the Tron chain that no top-up took: staff assign or return them.
    name: 'chain-deposits',
    list: '/admin/chain-deposits',
    meta: {
      parent: 'wallet-management',
      label: 'Chain Deposits',
      icon: <BlockOutlined />,
      path: 'wallet/chain-deposits',
      permission: 'reports.read',
    },
  },
  {
    // Issue 36: Finance's and the Super-Admin's alerts on the master, fee and wallet balances.
    name: 'balance-monitors',
    list: '/admin/balance-monitors',
    meta: {
      parent: 'wallet-management',
      label: 'Balance Alerts',
      icon: <AlertOutlined />,
      path: 'balance-monitors',
      permission: 'balances.monitor',
    },
  },
  {
    name: 'statements',
    list: '/admin/statements',
    show: '/admin/statements/:id',
    meta: {
      parent: 'wallet-management',
      label: 'Statement Matching',
      icon: <FileSearchOutlined />,
      path: 'statements',
      permission: 'reports.read',
    },
  },
  { name: 'statement-lines', meta: { hide: true, path: 'statements' } },
  { name: 'card-management', meta: { label: 'Card Management', icon: <CreditCardOutlined /> } },
  {
    name: 'cards',
    list: '/admin/cards',
    show: '/admin/cards/:id',
    meta: { parent: 'card-management', label: 'All Cards', icon: <CreditCardOutlined />, path: 'cards' },
  },
  {
    // /admin/cards/deleted?deleted_only=true (the list adds the filter)
    name: 'cards-deleted',
    list: '/admin/cards/deleted',
    meta: { parent: 'card-management', label: 'Deleted Cards', icon: <DeleteOutlined />, path: 'cards' },
  },
  {
    // /admin/cards/flagged?flagged_only=true
    name: 'cards-flagged',
    list: '/admin/cards/flagged',
    meta: { parent: 'card-management', label: 'Flagged Cards', icon: <FlagOutlined />, path: 'cards' },
  },
  {
    // What no card may pay (issue 32): every staff member reads it, a Super-Admin changes it.
    name: 'program-controls',
    list: '/admin/program-controls',
    meta: {
      parent: 'card-management',
      label: 'Program Controls',
      icon: <StopOutlined />,
      path: 'program/controls',
    },
  },
  {
    // Card disputes (issue 36): every staff member who reads customers reviews them.
    name: 'disputes',
    list: '/admin/disputes',
    show: '/admin/disputes/:id',
    meta: {
      parent: 'card-management',
      label: 'Disputes',
      icon: <ExceptionOutlined />,
      path: 'disputes',
      permission: 'customers.read',
    },
  },
  {
    name: 'reconciliation',
    list: '/admin/reconciliation',
    meta: {
      parent: 'card-management',
      label: 'Reconciliation',
      icon: <ReconciliationOutlined />,
      path: 'reconciliation',
      permission: 'reports.read',
    },
  },
  {
    name: 'reconciliation-operations',
    meta: { hide: true, path: 'reconciliation/operations' },
  },
  { name: 'customer-database', meta: { label: 'Customer Database', icon: <TeamOutlined /> } },
  {
    name: 'customers-individuals',
    list: '/admin/customers-individuals',
    meta: { parent: 'customer-database', label: 'Customers List', icon: <ContactsOutlined />, path: 'individuals' },
  },
  {
    name: 'customers-companies',
    list: '/admin/customers-companies',
    meta: { parent: 'customer-database', label: 'Companies List', icon: <BankOutlined />, path: 'companies' },
  },
  {
    name: 'third-parties',
    list: '/admin/third-parties',
    meta: {
      parent: 'customer-database',
      label: 'Third-Party Clients',
      icon: <ApiOutlined />,
      path: 'third-party/clients',
      permission: 'reports.read',
    },
  },
  { name: 'reports', meta: { label: 'Reports', icon: <BarChartOutlined /> } },
  {
    // Back-office §6 lists statistics among the admin screens: every role that reads the money figures.
    name: 'statistics',
    list: '/admin/reports/statistics',
    meta: {
      parent: 'reports',
      label: 'Statistics',
      icon: <LineChartOutlined />,
      path: 'reports/view-statistics',
      permission: 'reports.read',
    },
  },
];

/** The permissions of which the role needs one to open a resource's screen (none: every staff member). */
export function screenPermissions(name: string): readonly Permission[] {
  const p = all.find((r) => r.name === name)?.meta?.permission as Permission | readonly Permission[] | undefined;
  return p ? [p].flat() : [];
}

/** The resources as the signed-in staff member's menu shows them: those the role may read. */
export function resourcesFor(role: string | undefined): ResourceProps[] {
  return all.map((r) => {
    const needed = screenPermissions(r.name);
    return needed.length && !needed.some((p) => can(role, p)) ? { ...r, meta: { ...r.meta, hide: true } } : r;
  });
}
