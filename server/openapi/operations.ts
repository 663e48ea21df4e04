/**
 * The name and one-line summary of every /api/v1 operation, by `METHOD /path` as registered (the
 * keys of ./responses.ts). Code generators turn operationIds into method names, so they are stable
 * and unique: renaming one breaks integrators' generated clients.
 */
export const OPERATIONS: Record<string, readonly [operationId: string, summary: string]> = {
  // Health
  'GET /api/v1/health': ['getHealth', 'Check that the API and its database are up'],

  // Account
  'POST /api/v1/account/individuals/register': ['registerIndividual', 'Register an Individual'],
  'POST /api/v1/account/companies/register': ['registerCompany', 'Register a company and its admin user'],
  'GET /api/v1/account/verify-email': ['verifyEmail', 'Open the email verification link'],
  'POST /api/v1/account/login': ['logIn', 'Log in with email and password (first step)'],
  'POST /api/v1/account/auth-confirm': ['confirmTwoFactorSetup', 'Set up two-factor authentication and sign in'],
  'POST /api/v1/account/login-confirm': ['confirmLogIn', 'Confirm a login with the authenticator code'],
  'POST /api/v1/account/login-recover': [
    'recoverLogIn',
    'Confirm a login with a recovery code instead of the authenticator',
  ],
  'GET /api/v1/account/two-factor': [
    'getTwoFactorStatus',
    'Get the two-factor state and how many recovery codes are left',
  ],
  'POST /api/v1/account/recovery-codes': ['regenerateRecoveryCodes', 'Replace the recovery codes with a new set'],
  'POST /api/v1/account/two-factor/enrol': [
    'startAuthenticatorEnrolment',
    'Start moving two-factor authentication to a new authenticator app',
  ],
  'POST /api/v1/account/two-factor/enrol-confirm': [
    'confirmAuthenticatorEnrolment',
    'Confirm the new authenticator app with its code',
  ],
  'POST /api/v1/account/reset-2fa/:userId': ['resetTwoFactor', "Reset a user's two-factor authentication (staff)"],
  'POST /api/v1/account/reset': ['requestPasswordReset', 'Ask for a password reset link'],
  'POST /api/v1/account/reset-password': ['resetPassword', 'Set a new password from a reset link'],
  'POST /api/v1/account/accept-invite': ['acceptInvitation', 'Accept an invitation to a company'],
  'DELETE /api/v1/account/logout': ['logOut', 'End this session'],
  'POST /api/v1/account/helpdesk': ['sendHelpdeskMessage', 'Send a message to support'],

  // Profile
  'GET /api/v1/individuals/profile': ['getProfile', 'Get the signed-in user, their company and verification'],
  'PUT /api/v1/individuals/:id': ['updateProfile', "Update the signed-in user's details"],
  'PUT /api/v1/companies/:id': ['updateCompany', "Update the company's details"],
  'PATCH /api/v1/individuals/change-password/:id': ['changePassword', 'Change the password'],

  // Company users
  'GET /api/v1/company/users/:companyId': ['listCompanyUsers', "List the company's users"],
  'POST /api/v1/company/users/:companyId': ['inviteCompanyUser', 'Invite a user to the company'],
  'PUT /api/v1/company/users/:companyId/:userId': ['updateCompanyUserRole', "Change a company user's role"],
  'DELETE /api/v1/company/users/:companyId/:userId': ['deleteCompanyUser', 'Delete a company user'],

  // Fees
  'GET /api/v1/fees': ['listFees', 'Get the fee schedule'],
  'PUT /api/v1/fees/:id': ['updateFee', 'Change a fee (default or for one company)'],
  'GET /api/v1/company/fees/:id': ['getCompanyFees', "Get a company's fee schedule"],

  // Mobile money
  'GET /api/v1/param/momo-details': ['getMomoDetails', 'Get where to pay by mobile money'],
  'GET /api/v1/param/momo-users': ['searchMomoUsers', 'Find customers to name as mobile-money confirmers'],
  'PUT /api/v1/param/momo-sync': ['updateMomoSettings', 'Change the mobile-money settings'],

  // Wallet
  'GET /api/v1/wallet/account-balance/:id': ['getWalletBalance', "Get a master wallet's balance"],
  'POST /api/v1/wallet/topup-balance': ['startTopup', 'Start a wallet top-up'],
  'GET /api/v1/wallet/topup/:reference': ['getTopupInstructions', 'Get how to pay a top-up'],
  'GET /api/v1/wallet/deposit-address/:walletId': [
    'getDepositAddress',
    "Get a master wallet's own Tron deposit address",
  ],
  'GET /api/v1/wallet/chain-deposits': ['listChainDeposits', 'List settled on-chain deposits (staff)'],
  'POST /api/v1/wallet/chain-deposits/:id/assign': [
    'assignChainDeposit',
    'Credit an unassigned deposit to a wallet (staff)',
  ],
  'POST /api/v1/wallet/chain-deposits/:id/return': [
    'returnChainDeposit',
    'Mark an unassigned deposit as returned to its sender (staff)',
  ],
  'POST /api/v1/wallet/topup-confirm': ['confirmTopupPayment', 'Report a top-up as paid'],
  'POST /api/v1/wallet/transfer': ['transferFunds', 'Transfer to another master wallet'],
  'GET /api/v1/wallet/list-topups': ['listTopups', 'List top-ups (staff)'],
  'POST /api/v1/wallet/approve-topup': ['decideTopup', 'Approve or deny a top-up (staff)'],
  'GET /api/v1/wallet/list-momo-topups': ['listMomoTopups', 'List mobile-money top-ups'],
  'POST /api/v1/wallet/momo-confirm': ['confirmMomoPayment', 'Confirm that mobile money arrived (agents)'],

  // Reports
  'GET /api/v1/reports/view-wallet-transactions': ['listWalletTransactions', 'List master-wallet movements'],
  'GET /api/v1/reports/view-wallet-transfers': ['listWalletTransfers', 'List wallet-to-wallet transfers'],
  'GET /api/v1/reports/view-wallet-topups': ['listWalletTopups', "List a wallet's top-ups"],
  'GET /api/v1/reports/wallet-statement': ['getWalletStatement', "Download a wallet's statement for a period (PDF)"],
  'GET /api/v1/reports/view-statistics': ['getStatistics', 'Get the figures for a date range (staff)'],
  'GET /api/v1/reports/view-statistics-series': ['getStatisticsSeries', 'Get activity per day, week or month (staff)'],

  // Cards
  'POST /api/v1/cards': ['createCard', 'Issue and load a virtual card'],
  'GET /api/v1/cards/allowance': ['getCardAllowance', 'How many more cards the wallet may have'],
  'GET /api/v1/cards': ['listCards', 'List every card (staff)'],
  'GET /api/v1/cards/individual/:id': ['listIndividualCards', "List an Individual's cards"],
  'GET /api/v1/cards/company/:id': ['listCompanyCards', "List a company's cards"],
  'GET /api/v1/cards/:id': ['getCard', 'Get a card'],
  'PUT /api/v1/cards/:id': ['setCardSpendingLimit', "Set a Visa card's spending limit"],
  'DELETE /api/v1/cards/:id': ['deleteCard', 'Delete a card'],
  'POST /api/v1/cards/add-funds': ['fundCard', 'Load a premium card from the wallet'],
  'POST /api/v1/cards/withdraw-funds': ['withdrawFromCard', 'Move money from a premium card to the wallet'],
  'POST /api/v1/cards/add-spend-limit/:id': ['addCardSpendingLimit', 'Allow extra spending on a Visa card'],
  'POST /api/v1/cards/change-status/:id': ['changeCardStatus', 'Freeze or unfreeze a premium card'],
  'POST /api/v1/cards/change-status-token': [
    'changeCardStatusByToken',
    'Freeze or unfreeze a card by its issuer token (staff)',
  ],
  'POST /api/v1/cards/flag/:id': ['flagCard', 'Flag a card (staff)'],
  'POST /api/v1/cards/unflag/:id': ['unflagCard', 'Unflag a card (staff)'],
  'POST /api/v1/cards/suspend/:id': ['suspendCard', 'Suspend a card (staff)'],
  'POST /api/v1/cards/unsuspend/:id': ['unsuspendCard', 'Unsuspend a card (staff)'],
  'GET /api/v1/wallet/master-balance': ['getCardBalances', 'Get the money on cards by purpose (staff)'],
  'GET /api/v1/reports/view-cards-transactions': ['listCardTransactions', "List a card's transactions"],

  // Sandbox issuer
  'POST /api/v1/sandbox/chain/transfers': [
    'sendSandboxChainTransfer',
    'Send USDT to an address on the sandbox chain (sandbox, staff)',
  ],
  'POST /api/v1/sandbox/authorizations': [
    'createSandboxAuthorization',
    'Charge a card as a merchant would (sandbox, staff)',
  ],
  'POST /api/v1/sandbox/authorizations/:id/reverse': [
    'reverseSandboxAuthorization',
    'Reverse a held payment (sandbox, staff)',
  ],
  'POST /api/v1/sandbox/authorizations/:id/settle': [
    'settleSandboxAuthorization',
    'Settle a held payment (sandbox, staff)',
  ],

  // Verification
  'POST /api/v1/individuals/kyc/:userId': ['submitKyc', "Submit an Individual's KYC"],
  'POST /api/v1/company/kyb/:companyId': ['submitKyb', "Submit a company's KYB"],
  'GET /api/v1/verification/get-individuals': ['listKycSubmissions', 'List KYC submissions (staff)'],
  'GET /api/v1/verification/get-companies': ['listKybSubmissions', 'List KYB submissions (staff)'],
  'GET /api/v1/verification/details/:id': ['getVerification', 'Get a verification with its documents (staff)'],
  'POST /api/v1/verification/decide': ['decideVerification', 'Approve or reject a verification (staff)'],
  'GET /api/v1/files/:id': ['downloadFile', 'Download a verification document'],

  // Customers
  'GET /api/v1/individuals': ['listIndividuals', 'List Individuals (staff)'],
  'GET /api/v1/companies': ['listCompanies', 'List companies (staff)'],
  'DELETE /api/v1/individuals/:id': ['deactivateIndividual', "Deactivate an Individual's account (staff)"],
  'DELETE /api/v1/companies/:id': ['deactivateCompany', "Deactivate a company's account (staff)"],
  'POST /api/v1/individuals/status': ['reactivateIndividual', "Reactivate an Individual's account (staff)"],
  'POST /api/v1/company/status': ['reactivateCompany', "Reactivate a company's account (staff)"],

  // Administrators
  'GET /api/v1/account/admins': ['listAdmins', 'List administrators (Super-Admin)'],
  'POST /api/v1/account/admins': ['createAdmin', 'Create an administrator (Super-Admin)'],
  'PUT /api/v1/account/admins/:id': ['updateAdmin', 'Change an administrator (Super-Admin)'],
  'DELETE /api/v1/account/admins/:id': ['deleteAdmin', 'Delete an administrator (Super-Admin)'],

  // Audit
  'GET /api/v1/audit-logs': ['listAuditLog', 'List the audit trail (Super-Admin)'],

  // Reconciliation
  'GET /api/v1/reconciliation': [
    'getReconciliation',
    'Get the last reconciliation of the ledger with the card issuer (staff)',
  ],
  'POST /api/v1/reconciliation/run': [
    'runReconciliation',
    'Reconcile the ledger with the card issuer now (Super-Admin)',
  ],
  'GET /api/v1/reconciliation/operations': [
    'listIssuerOperations',
    "List the card issuer's operations: failed, pending or done (staff)",
  ],

  // API integration
  'POST /api/v1/oauth/token': ['getAccessToken', 'Get an access token for client credentials'],
  'GET /api/v1/third-party/clients': [
    'listApiClients',
    'Get the API credentials (company admins) or every API client (staff)',
  ],
  'POST /api/v1/third-party/clients': ['createApiClient', 'Generate API credentials'],
  'DELETE /api/v1/third-party/clients/:companyId': ['revokeApiClient', 'Revoke API credentials'],
  'GET /api/v1/third-party/callback-details': ['getCallback', 'Get the webhook callback URL and signing secret'],
  'POST /api/v1/third-party/callback-request': ['setCallback', 'Set the webhook callback URL'],
  'PUT /api/v1/third-party/callback-status': ['setCallbackStatus', 'Turn the webhook callback on or off'],
  'DELETE /api/v1/third-party/callback-revoke': ['revokeCallback', 'Remove the webhook callback'],
  'GET /api/v1/third-party/webhook-deliveries': [
    'listWebhookDeliveries',
    'List webhook events and their delivery attempts',
  ],

  // Notifications
  'GET /api/v1/notifications': ['listNotifications', 'List my notifications, newest first, with the unread count'],
  'POST /api/v1/notifications/read': ['markNotificationsRead', 'Mark my notifications read (all, or the ids given)'],
  'GET /api/v1/account/notification-settings': ['getNotificationSettings', 'Get which notifications I am mailed'],
  'PUT /api/v1/account/notification-settings': ['updateNotificationSettings', 'Choose which notifications I am mailed'],
};
