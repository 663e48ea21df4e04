import { Authenticated, Refine } from '@refinedev/core';
import { ErrorComponent, ThemedLayout, useNotificationProvider } from '@refinedev/antd';
import routerProvider, { CatchAllNavigate, DocumentTitleHandler } from '@refinedev/react-router';
import { App as AntApp } from 'antd';
import { useEffect, useMemo } from 'react';
import { Outlet, Route, Routes, useNavigate } from 'react-router';
import '@refinedev/antd/dist/reset.css';
import { createAuthProvider } from '@shared/api/auth';
import { configureClient } from '@shared/api/client';
import { dataProvider } from '@shared/api/dataProvider';
import { ScreenBoundary } from '@shared/ui/ScreenBoundary';
import { SkipLink } from '@shared/ui/SkipLink';
import { useSession } from '@shared/ui/useSession';
import './admin.css';
import { AdminHeader } from './components/AdminHeader';
import { AdminSider } from './components/AdminSider';
import { Allowed } from './components/Allowed';
import AdminsList from './pages/admins/list';
import ApprovalPolicies from './pages/approvals/policies';
import ApprovalsList from './pages/approvals/list';
import AuditList from './pages/audit/list';
import ReconciliationList from './pages/reconciliation/list';
import StatementsList from './pages/statements/list';
import StatementShow from './pages/statements/show';
import StatementSources from './pages/statements/sources';
import CustomersList from './pages/customers/list';
import CardTransfersList from './pages/card-transfers/list';
import ChainDepositsList from './pages/chain-deposits/list';
import BalanceMonitorsList from './pages/balance-monitors/list';
import CardsList from './pages/cards/list';
import CardShow from './pages/cards/show';
import AdminDashboard from './pages/dashboard/AdminDashboard';
import FeesList from './pages/fees/list';
import CompanyFees from './pages/fees/show';
import MomoDetails from './pages/momo/edit';
import ProgramControls from './pages/program-controls/edit';
import DisputesList from './pages/disputes/list';
import DisputeShow from './pages/disputes/show';
import StatisticsPage from './pages/statistics/list';
import ThirdPartiesList from './pages/third-parties/list';
import { StaffCardTransactions, StaffWalletTransactions } from './pages/transactions/list';
import VerificationList from './pages/verifications/list';
import VerificationShow from './pages/verifications/show';
import WalletLoadsList from './pages/wallet-loads/list';
import WalletTransfersList from './pages/wallet-transfers/list';
import { resourcesFor, screenPermissions } from './resources';

const authProvider = createAuthProvider('staff');
/**
 * ThemedLayout calls its Sider as a function too, so the hooks live one level down. The skip link
 * comes first: the sider is the layout's first child.
 */
const Sider = () => (
  <>
    <SkipLink />
    <AdminSider />
  </>
);

/** Refine reports data errors itself; the client only needs to know where /login is. */
function ClientBridge() {
  const navigate = useNavigate();
  useEffect(
    () => configureClient({ onError: undefined, onUnauthorized: () => navigate('/login', { replace: true }) }),
    [navigate],
  );
  return null;
}

export default function AdminApp() {
  const role = useSession()?.user.role;
  const resources = useMemo(() => resourcesFor(role), [role]);
  return (
    <AntApp>
      <Refine
        dataProvider={dataProvider}
        authProvider={authProvider}
        routerProvider={routerProvider}
        notificationProvider={useNotificationProvider}
        resources={resources}
        options={{
          syncWithLocation: true,
          warnWhenUnsavedChanges: true,
          disableTelemetry: true,
          title: { text: 'Cardwallet' },
        }}
      >
        <ClientBridge />
        <Routes>
          <Route
            element={
              <Authenticated key="admin" fallback={<CatchAllNavigate to="/login" />}>
                <ThemedLayout Header={AdminHeader} Sider={Sider}>
                  <ScreenBoundary home="/admin">
                    <Outlet />
                  </ScreenBoundary>
                </ThemedLayout>
              </Authenticated>
            }
          >
            <Route index element={<AdminDashboard />} />
            <Route path="approvals" element={<ApprovalsList />} />
            <Route
              path="approval-policies"
              element={
                <Allowed to={screenPermissions('approval-policies')}>
                  <ApprovalPolicies />
                </Allowed>
              }
            />
            <Route path="verifications-individuals" element={<VerificationList key="individual" kind="individual" />} />
            <Route
              path="verifications-individuals/:id"
              element={<VerificationShow key="individual" kind="individual" />}
            />
            <Route path="verifications-companies" element={<VerificationList key="company" kind="company" />} />
            <Route path="verifications-companies/:id" element={<VerificationShow key="company" kind="company" />} />
            <Route path="customers-individuals" element={<CustomersList key="individual" kind="individual" />} />
            <Route path="customers-companies" element={<CustomersList key="company" kind="company" />} />
            <Route
              path="third-parties"
              element={
                <Allowed to={screenPermissions('third-parties')}>
                  <ThirdPartiesList />
                </Allowed>
              }
            />
            <Route
              path="administration-admins"
              element={
                <Allowed to={screenPermissions('administration-admins')}>
                  <AdminsList />
                </Allowed>
              }
            />
            <Route
              path="audit-logs"
              element={
                <Allowed to={screenPermissions('audit-logs')}>
                  <AuditList />
                </Allowed>
              }
            />
            <Route
              path="reconciliation"
              element={
                <Allowed to={screenPermissions('reconciliation')}>
                  <ReconciliationList />
                </Allowed>
              }
            />
            <Route
              path="statements"
              element={
                <Allowed to={screenPermissions('statements')}>
                  <StatementsList />
                </Allowed>
              }
            />
            <Route
              path="statements/sources"
              element={
                <Allowed to={screenPermissions('statements')}>
                  <StatementSources />
                </Allowed>
              }
            />
            <Route
              path="statements/:id"
              element={
                <Allowed to={screenPermissions('statements')}>
                  <StatementShow />
                </Allowed>
              }
            />
            <Route path="wallet-loads" element={<WalletLoadsList />} />
            <Route path="wallet-transfers" element={<WalletTransfersList />} />
            <Route
              path="chain-deposits"
              element={
                <Allowed to={screenPermissions('chain-deposits')}>
                  <ChainDepositsList />
                </Allowed>
              }
            />
            <Route
              path="balance-monitors"
              element={
                <Allowed to={screenPermissions('balance-monitors')}>
                  <BalanceMonitorsList />
                </Allowed>
              }
            />
            <Route path="card-transfers" element={<CardTransfersList />} />
            {/* back-office §1: card-maintenance shows the same list as wallet transfers */}
            <Route path="card-maintenance" element={<WalletTransfersList />} />
            <Route path="wallet-transactions" element={<StaffWalletTransactions />} />
            <Route path="card-transactions" element={<StaffCardTransactions />} />
            <Route path="cards" element={<CardsList key="all" kind="all" />} />
            <Route path="cards/deleted" element={<CardsList key="deleted" kind="deleted" />} />
            <Route path="cards/flagged" element={<CardsList key="flagged" kind="flagged" />} />
            <Route path="cards/:id" element={<CardShow />} />
            <Route path="program-controls" element={<ProgramControls />} />
            <Route
              path="disputes"
              element={
                <Allowed to={screenPermissions('disputes')}>
                  <DisputesList />
                </Allowed>
              }
            />
            <Route
              path="disputes/:id"
              element={
                <Allowed to={screenPermissions('disputes')}>
                  <DisputeShow />
                </Allowed>
              }
            />
            <Route
              path="fees"
              element={
                <Allowed to={screenPermissions('fees')}>
                  <FeesList />
                </Allowed>
              }
            />
            <Route
              path="fees/:id"
              element={
                <Allowed to={screenPermissions('fees')}>
                  <CompanyFees />
                </Allowed>
              }
            />
            <Route
              path="momo"
              element={
                <Allowed to={screenPermissions('momo')}>
                  <MomoDetails />
                </Allowed>
              }
            />
            <Route
              path="reports/statistics"
              element={
                <Allowed to={screenPermissions('statistics')}>
                  <StatisticsPage />
                </Allowed>
              }
            />
            <Route path="*" element={<ErrorComponent />} />
          </Route>
        </Routes>
        <DocumentTitleHandler handler={() => 'Cardwallet back-office'} />
      </Refine>
    </AntApp>
  );
}
