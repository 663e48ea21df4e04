import type { FastifyInstance } from 'fastify';
import accountRoutes from './modules/account/routes';
import companyUserRoutes from './modules/company-users/routes';
import healthRoutes from './modules/health/routes';
import helpdeskRoutes from './modules/helpdesk/routes';
import profileRoutes from './modules/profile/routes';
import feeRoutes from './modules/fees/routes';
import momoRoutes from './modules/momo/routes';
import reportRoutes from './modules/reports/routes';
import walletRoutes from './modules/wallet/routes';
import recipientRoutes from './modules/wallet/recipient';
import cardRoutes from './modules/cards/routes';
import sandboxRoutes from './modules/cards/sandbox-routes';
import cardControlRoutes from './modules/cards/controls/routes';
import adminRoutes from './modules/admins/routes';
import roleRoutes from './modules/roles/routes';
import adminAccessRoutes from './modules/admins/access-routes';
import auditRoutes from './modules/audit/routes';
import reconciliationRoutes from './modules/reconciliation/routes';
import customerRoutes from './modules/customers/routes';
import fileRoutes from './modules/files/routes';
import verificationRoutes from './modules/verification/routes';
import integrationRoutes from './modules/integrations/routes';
import statisticsRoutes from './modules/statistics/routes';
import approvalRoutes from './modules/approvals/routes';
import notificationRoutes from './modules/notifications/routes';
import depositRoutes from './modules/deposits/routes';
import balanceRoutes from './modules/balances/routes';
import statementRoutes from './modules/statements/routes';
import disputeRoutes from './modules/disputes/routes';

/** Every API module, mounted under /api/v1. */
export async function apiRoutes(app: FastifyInstance) {
  // A JSON body is optional on most mutations; treat a missing one as {} so fields get their own messages.
  app.addHook('preValidation', async (req) => {
    if (req.body === undefined && ['POST', 'PUT', 'PATCH'].includes(req.method)) req.body = {};
  });
  await app.register(healthRoutes);
  await app.register(accountRoutes);
  await app.register(helpdeskRoutes);
  await app.register(profileRoutes);
  await app.register(companyUserRoutes);
  await app.register(feeRoutes);
  await app.register(momoRoutes);
  await app.register(walletRoutes);
  await app.register(recipientRoutes);
  await app.register(depositRoutes);
  await app.register(reportRoutes);
  await app.register(cardRoutes);
  await app.register(sandboxRoutes);
  await app.register(disputeRoutes);
  await app.register(cardControlRoutes);
  await app.register(verificationRoutes);
  await app.register(fileRoutes);
  await app.register(customerRoutes);
  await app.register(adminRoutes);
  await app.register(roleRoutes);
  await app.register(adminAccessRoutes);
  await app.register(auditRoutes);
  await app.register(reconciliationRoutes);
  await app.register(statementRoutes);
  await app.register(integrationRoutes);
  await app.register(statisticsRoutes);
  await app.register(notificationRoutes);
  await app.register(approvalRoutes);
  await app.register(balanceRoutes);
}
