import type { StaffRole } from './roles';

/**
 * What staff may do, as data (issue 33). The server enforces it on every staff call and the
 * back-office reads it to show only what a person may do; GET /roles lists it.
 *
 * A staff member's own password, second factor, sessions and notifications need no permission.
 */
export const PERMISSIONS = {
  'customers.read': 'Read customers, their wallets, cards and transactions',
  'customers.manage': 'Change, deactivate and reactivate customers and their users',
  'verification.review': 'Review verifications and decide them',
  'cards.freeze': 'Freeze, unfreeze, flag and suspend cards',
  'cards.manage': 'Set cards’ spending limits and controls, delete cards',
  'cards.money': 'Fund cards and withdraw from them',
  'cards.simulate': 'Simulate card payments while the issuer is the sandbox',
  'disputes.submit': 'Send card disputes to the card issuer',
  'program.manage': 'Change the program controls',
  'topups.decide': 'Approve and reject top-ups, confirm mobile-money payments',
  'deposits.manage': 'Assign and return chain deposits, send sandbox chain transfers',
  'reconciliation.run': 'Run the reconciliation with the card issuer',
  'fees.manage': 'Change fees',
  'balances.monitor': 'Read, add and remove the balance alerts',
  'momo.manage': 'Change the mobile-money settings',
  'two_factor.reset': 'Reset a person’s second factor, or approve such a reset',
  'two_factor.request': 'Ask for a second-factor reset, which then always needs approval',
  'staff.read': 'Read the staff, their roles and sessions',
  'staff.manage': 'Add, change, deactivate and remove staff; end their sessions',
  'approvals.manage': 'Set the approval policies',
  'audit.read': 'Read the audit trail',
  'reports.read':
    'Read everything else: top-ups, deposits, reconciliation, fees, statistics, reports and their exports',
} as const;
export type Permission = keyof typeof PERMISSIONS;
export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as [Permission, ...Permission[]];

const ALL = PERMISSION_NAMES.filter((p) => p !== 'two_factor.request');
const READS: Permission[] = ['customers.read', 'reports.read'];

/** Role → permissions. Admin is what it was before roles by job: everything but the Super-Admin's screens. */
export const ROLE_PERMISSIONS: Record<StaffRole, readonly Permission[]> = {
  'Super-Admin': ALL,
  Admin: ALL.filter(
    (p) =>
      ![
        'program.manage',
        'fees.manage',
        'momo.manage',
        'reconciliation.run',
        'balances.monitor',
        'staff.read',
        'staff.manage',
        'approvals.manage',
        'audit.read',
      ].includes(p),
  ),
  Compliance: [...READS, 'customers.manage', 'verification.review'],
  Finance: [...READS, 'topups.decide', 'deposits.manage', 'reconciliation.run', 'fees.manage', 'balances.monitor'],
  Support: ['customers.read', 'cards.freeze', 'two_factor.request'],
  Auditor: [...READS, 'staff.read', 'audit.read'],
};

export const ROLE_DESCRIPTIONS: Record<StaffRole, string> = {
  'Super-Admin': 'Everything, including staff, fees, settings, approval policies and the audit trail.',
  Admin: 'Runs customers, cards and money; not staff, fees, settings or the audit trail.',
  Compliance: 'Verification review and customer data; reads the rest.',
  Finance: 'Top-ups, chain deposits, reconciliation, fees, balance alerts and statements; reads the rest.',
  Support: 'Reads customers, wallets and cards, freezes a card, asks for a second-factor reset; moves no money.',
  Auditor: 'Reads everything, including the audit trail and exports; changes nothing.',
};

/** May a person in this role do this? Customers and unknown roles hold no staff permission. */
export function can(role: string | undefined, permission: Permission): boolean {
  const granted = ROLE_PERMISSIONS[role as StaffRole];
  return !!granted && granted.includes(permission);
}

/**
 * The maker-checker actions (issue 33) and the permission each needs, of its maker and of its
 * checker. A maker holding only `two_factor.request` (Support) may ask for a reset, which then needs
 * approval whatever the policy says.
 */
export const APPROVAL_ACTIONS = {
  'card.fund': 'cards.money',
  'card.withdraw': 'cards.money',
  'card.delete': 'cards.manage',
  'topup.approve': 'topups.decide',
  'deposit.assign': 'deposits.manage',
  'deposit.return': 'deposits.manage',
  'fee.change': 'fees.manage',
  'admin.create': 'staff.manage',
  'admin.role_change': 'staff.manage',
  'two_factor.reset': 'two_factor.reset',
  'customer.deactivate': 'customers.manage',
} as const satisfies Record<string, Permission>;
export type ApprovalAction = keyof typeof APPROVAL_ACTIONS;
export const APPROVAL_ACTION_NAMES = Object.keys(APPROVAL_ACTIONS) as ApprovalAction[];

/**
 * What a staff member needs to call each API operation (by operationId): one permission, or a list of
 * which any one will do; `'self'` for their own account (profile, password, second factor, sessions,
 * notifications); `'staff'` for what every staff member reads (reference data, the roles, the dashboard's
 * counts, which are filtered by role); `'public'` for what needs no sign-in; `'customers'` for customers'
 * own operations, which staff never call. plugins/auth.ts enforces it on every staff call, and the server
 * does not start while an /api/v1 operation is missing. Customers' rights are the routes' own.
 */
export type OperationRule = Permission | readonly Permission[] | 'self' | 'staff' | 'public' | 'customers';

const PUBLIC = [
  'getHealth',
  'getReady',
  'registerIndividual',
  'registerCompany',
  'verifyEmail',
  'logIn',
  'confirmTwoFactorSetup',
  'confirmLogIn',
  'recoverLogIn',
  'requestPasswordReset',
  'resetPassword',
  'acceptInvitation',
  'getAccessToken',
  'sendHelpdeskMessage',
] as const;
const SELF = [
  'logOut',
  'getProfile',
  'updateProfile',
  'changePassword',
  'getTwoFactorStatus',
  'regenerateRecoveryCodes',
  'startAuthenticatorEnrolment',
  'confirmAuthenticatorEnrolment',
  'listNotifications',
  'markNotificationsRead',
  'getNotificationSettings',
  'updateNotificationSettings',
] as const;
const CUSTOMERS = [
  'updateCompany',
  'submitKyc',
  'submitKyb',
  'inviteCompanyUser',
  'updateCompanyUserRole',
  'deleteCompanyUser',
  'startTopup',
  'getTopupInstructions',
  'confirmTopupPayment',
  'confirmMomoPayment',
  'transferFunds',
  'getTransferRecipient',
  'createCard',
  'getCardAllowance',
  'addCardSpendingLimit',
  'setCardSpendingLimit',
  'createCardDispute',
  'withdrawDispute',
  'createApiClient',
  'revokeApiClient',
  'getCallback',
  'setCallback',
  'setCallbackStatus',
  'revokeCallback',
  'getAuthorizationDecisionEndpoint',
  'setAuthorizationDecisionEndpoint',
  'removeAuthorizationDecisionEndpoint',
] as const;

/** Who may decide some held action: the permissions of the maker-checker actions, any one of them. */
const CHECKER: readonly Permission[] = [...new Set(Object.values(APPROVAL_ACTIONS))];

const STAFF_OPERATIONS: Record<string, OperationRule> = {
  listRoles: 'staff',
  // Approvals: every staff member reads the queue; deciding needs the permission of some held action (the
  // service then checks the request's own), the policies are the Super-Admin's and the Auditor reads them.
  listApprovals: 'staff',
  getApproval: 'staff',
  approveApproval: CHECKER,
  rejectApproval: CHECKER,
  listApprovalPolicies: ['approvals.manage', 'audit.read'],
  updateApprovalPolicies: 'approvals.manage',
  listMerchantCategories: 'staff',
  getMomoDetails: 'staff',
  getAttention: 'staff',
  // It explains a program_blocked decline to whoever looks at a card.
  getProgramControls: 'staff',
  // Customers, their wallets and cards
  listIndividuals: 'customers.read',
  listCompanies: 'customers.read',
  listCompanyUsers: 'customers.read',
  listKycSubmissions: 'customers.read',
  listKybSubmissions: 'customers.read',
  getVerification: 'customers.read',
  downloadFile: 'customers.read',
  getWalletBalance: 'customers.read',
  getDepositAddress: 'customers.read',
  listTopups: 'customers.read',
  listWalletTopups: 'customers.read',
  listWalletTransactions: 'customers.read',
  listWalletTransfers: 'customers.read',
  getWalletStatement: 'customers.read',
  listCards: 'customers.read',
  getCard: 'customers.read',
  getCardControls: 'customers.read',
  listIndividualCards: 'customers.read',
  listCompanyCards: 'customers.read',
  listCardTransactions: 'customers.read',
  getCardBalance: 'customers.read',
  listDisputes: 'customers.read',
  getDispute: 'customers.read',
  deactivateIndividual: 'customers.manage',
  deactivateCompany: 'customers.manage',
  reactivateIndividual: 'customers.manage',
  reactivateCompany: 'customers.manage',
  decideVerification: 'verification.review',
  resetTwoFactor: ['two_factor.reset', 'two_factor.request'],
  // Cards
  changeCardStatus: 'cards.freeze',
  changeCardStatusByToken: 'cards.freeze',
  flagCard: 'cards.freeze',
  unflagCard: 'cards.freeze',
  suspendCard: 'cards.freeze',
  unsuspendCard: 'cards.freeze',
  setCardControls: 'cards.manage',
  deleteCard: 'cards.manage',
  fundCard: 'cards.money',
  withdrawFromCard: 'cards.money',
  createSandboxAuthorization: 'cards.simulate',
  incrementSandboxAuthorization: 'cards.simulate',
  reverseSandboxAuthorization: 'cards.simulate',
  clearSandboxAuthorization: 'cards.simulate',
  settleSandboxAuthorization: 'cards.simulate',
  createSandboxRefund: 'cards.simulate',
  createSandboxForcePost: 'cards.simulate',
  expireSandboxHolds: 'cards.simulate',
  setProgramControls: 'program.manage',
  // Sending a dispute may credit the card (provisional credit): those who move card money, not Support.
  submitDispute: 'disputes.submit',
  resolveSandboxDispute: 'cards.simulate',
  // Money: top-ups, chain deposits, reconciliation, fees, statistics
  listMomoTopups: 'reports.read',
  decideTopup: 'topups.decide',
  listChainDeposits: 'reports.read',
  assignChainDeposit: 'deposits.manage',
  returnChainDeposit: 'deposits.manage',
  sendSandboxChainTransfer: 'deposits.manage',
  getCardBalances: 'reports.read',
  getReconciliation: 'reports.read',
  listIssuerOperations: 'reports.read',
  runReconciliation: 'reconciliation.run',
  // Statement matching (issue 36): whoever reads reports reads them; Finance and the Super-Admin upload, map, resolve.
  listStatementSources: 'reports.read',
  getStatementSource: 'reports.read',
  updateStatementSource: 'reconciliation.run',
  uploadStatement: 'reconciliation.run',
  listStatements: 'reports.read',
  getStatement: 'reports.read',
  listStatementLines: 'reports.read',
  resolveStatementLine: 'reconciliation.run',
  listFees: 'reports.read',
  getCompanyFees: 'reports.read',
  updateFee: 'fees.manage',
  // Balance alerts (issue 36): Finance's and the Super-Admin's alone, their reading included.
  listBalanceMonitors: 'balances.monitor',
  createBalanceMonitor: 'balances.monitor',
  deleteBalanceMonitor: 'balances.monitor',
  getStatistics: 'reports.read',
  getStatisticsSeries: 'reports.read',
  listApiClients: 'reports.read',
  listWebhookDeliveries: 'reports.read',
  searchMomoUsers: 'momo.manage',
  updateMomoSettings: 'momo.manage',
  // Staff and the audit trail
  listAdmins: 'staff.read',
  createAdmin: 'staff.manage',
  updateAdmin: 'staff.manage',
  deleteAdmin: 'staff.manage',
  endAdminSessions: 'staff.manage',
  deactivateAdmin: 'staff.manage',
  reactivateAdmin: 'staff.manage',
  listAuditLog: 'audit.read',
};

export const OPERATION_PERMISSIONS: Readonly<Record<string, OperationRule>> = {
  ...Object.fromEntries(PUBLIC.map((id) => [id, 'public'])),
  ...Object.fromEntries(SELF.map((id) => [id, 'self'])),
  ...Object.fromEntries(CUSTOMERS.map((id) => [id, 'customers'])),
  ...STAFF_OPERATIONS,
};

/** The permissions of which a staff member needs one for a rule (none for 'self', 'staff', 'public', 'customers'). */
export const permissionsOf = (rule: OperationRule): readonly Permission[] =>
  typeof rule === 'string' ? (rule in PERMISSIONS ? [rule as Permission] : []) : rule;
