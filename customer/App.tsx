import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, Button, Result } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { Route, Routes, useNavigate } from 'react-router';
import { configureClient } from '../shared/api/client';
import { OnboardingLayout } from './layouts/SplitLayout';
import Dashboard from './pages/dashboard/Dashboard';
import { ContactPage, FaqPage, HelpDeskPage } from './pages/help/HelpPages';
import LoginPage from './pages/login/LoginPage';
import CompanySignup from './pages/onboarding/CompanySignup';
import IndividualSignup from './pages/onboarding/IndividualSignup';
import Invited from './pages/onboarding/Invited';
import NewPassword from './pages/onboarding/NewPassword';
import { EmailVerified, OnboardingError, OnboardingSuccess, ResetConfirmation } from './pages/onboarding/ResultScreens';
import SignupStart from './pages/onboarding/SignupStart';
import ApiGuidePage from './pages/api-settings/ApiGuidePage';
import ApiSettingsPage from './pages/api-settings/ApiSettingsPage';
import { PortalLayout } from './pages/portal/PortalLayout';
import CardDetailPage from './pages/cards/CardDetailPage';
import CardSpendingPage from './pages/cards/CardSpendingPage';
import CardTransactionsPage from './pages/cards/CardTransactionsPage';
import PrepaidCardsPage from './pages/cards/PrepaidCardsPage';
import UsersPage from './pages/users/UsersPage';
import VerificationPage from './pages/verification/VerificationPage';
import MomoLoadsPage from './pages/wallet/MomoLoadsPage';
import WalletLoadsPage from './pages/wallet/WalletLoadsPage';
import WalletTransactionsPage from './pages/wallet/WalletTransactionsPage';
import WalletTransfersPage from './pages/wallet/WalletTransfersPage';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 } },
});

/** The portal's screens, by path under /portal; the menu shows only what is here. */
const portalScreens: Record<string, ReactNode> = {
  kycverifications: <VerificationPage />,
  'wallet-loads': <WalletLoadsPage />,
  'wallet-transfers': <WalletTransfersPage />,
  'wallet-transactions': <WalletTransactionsPage />,
  'momo-loads': <MomoLoadsPage />,
  'prepaid-cards': <PrepaidCardsPage />,
  'prepaid-cards/:id': <CardDetailPage />,
  'card-spending': <CardSpendingPage />,
  'card-transactions': <CardTransactionsPage />,
  users: <UsersPage />,
  apisettings: <ApiSettingsPage />,
  'apisettings/guide': <ApiGuidePage />,
  faq: <FaqPage />,
  'help-desk': <HelpDeskPage />,
};
const built = (path: string) => path === '/portal' || path.replace(/^\/portal\//, '') in portalScreens;

/** Plugs the API client into this app: toasts for 4xx, the router for 401. */
function ClientBridge() {
  const { message } = AntApp.useApp();
  const navigate = useNavigate();
  useEffect(() => {
    configureClient({
      onError: (e) => message.error(e.display, 4),
      onUnauthorized: () => navigate('/login', { replace: true }),
    });
  }, [message, navigate]);
  return null;
}

function NotFound() {
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title="Page not found"
      subTitle="The page you are looking for does not exist."
      extra={<Button onClick={() => navigate('/')}>Back to Home</Button>}
    />
  );
}

export default function CustomerApp() {
  return (
    <QueryClientProvider client={queryClient}>
      <ClientBridge />
      <Routes>
        <Route path="/" element={<LoginPage />} />
        <Route path="/login" element={<LoginPage />} />
        <Route path="/contact" element={<ContactPage />} />
        <Route path="/onboarding" element={<OnboardingLayout />}>
          <Route index element={<SignupStart />} />
          <Route path="signup" element={<IndividualSignup />} />
          <Route path="company" element={<CompanySignup />} />
          <Route path="invited" element={<Invited />} />
          <Route path="error" element={<OnboardingError />} />
          <Route path="success" element={<OnboardingSuccess />} />
          <Route path="email-verified" element={<EmailVerified />} />
          <Route path="reset" element={<ResetConfirmation />} />
          <Route path="new-password" element={<NewPassword />} />
        </Route>
        <Route path="/portal" element={<PortalLayout built={built} />}>
          <Route index element={<Dashboard kycReady={built('/portal/kycverifications')} />} />
          {Object.entries(portalScreens).map(([path, element]) => (
            <Route key={path} path={path} element={element} />
          ))}
          <Route path="*" element={<NotFound />} />
        </Route>
        <Route path="*" element={<NotFound />} />
      </Routes>
    </QueryClientProvider>
  );
}
