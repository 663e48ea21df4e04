import { App as AntApp } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { Route, Routes, useNavigate } from 'react-router';
import { configureClient } from '@shared/api/client';
import { ScreenBoundary } from '@shared/ui/ScreenBoundary';
import { SkipLink } from '@shared/ui/SkipLink';
import { OnboardingLayout } from './layouts/SplitLayout';
import LoginPage from './pages/login/LoginPage';
import { screen } from './screens';
import { PortalSkeleton, ScreenSkeleton } from './Skeletons';

// Only the login screen (/ and /login) is in this chunk; every other screen loads when first shown.
// A portal screen loads inside the portal's frame, in the shape of a screen's content.
const portalLoading = <ScreenSkeleton />;
const help = () => import('./pages/help/HelpPages');
const results = () => import('./pages/onboarding/ResultScreens');
const ContactPage = screen(help, (m) => m.ContactPage);
const FaqPage = screen(help, (m) => m.FaqPage, portalLoading);
const HelpDeskPage = screen(help, (m) => m.HelpDeskPage, portalLoading);
const SignupStart = screen(
  () => import('./pages/onboarding/SignupStart'),
  (m) => m.default,
);
const IndividualSignup = screen(
  () => import('./pages/onboarding/IndividualSignup'),
  (m) => m.default,
);
const CompanySignup = screen(
  () => import('./pages/onboarding/CompanySignup'),
  (m) => m.default,
);
const Invited = screen(
  () => import('./pages/onboarding/Invited'),
  (m) => m.default,
);
const NewPassword = screen(
  () => import('./pages/onboarding/NewPassword'),
  (m) => m.default,
);
const OnboardingError = screen(results, (m) => m.OnboardingError);
const OnboardingSuccess = screen(results, (m) => m.OnboardingSuccess);
const EmailVerified = screen(results, (m) => m.EmailVerified);
const ResetConfirmation = screen(results, (m) => m.ResetConfirmation);
const loadDashboard = () => import('./pages/dashboard/Dashboard');
// The dashboard is fetched with the portal's frame, not after it: no second wait on /portal.
const PortalLayout = screen(
  () => Promise.all([import('./pages/portal/PortalRoot'), loadDashboard()]).then(([m]) => m),
  (m) => () => <m.PortalRoot built={built} />,
  <PortalSkeleton />,
);
const NotFound = screen(
  () => import('./pages/NotFound'),
  (m) => m.default,
);
const Dashboard = screen(
  loadDashboard,
  (m) => () => <m.default kycReady={built('/portal/kycverifications')} />,
  portalLoading,
);
const VerificationPage = screen(
  () => import('./pages/verification/VerificationPage'),
  (m) => m.default,
  portalLoading,
);
const WalletLoadsPage = screen(
  () => import('./pages/wallet/WalletLoadsPage'),
  (m) => m.default,
  portalLoading,
);
const WalletTransfersPage = screen(
  () => import('./pages/wallet/WalletTransfersPage'),
  (m) => m.default,
  portalLoading,
);
const WalletTransactionsPage = screen(
  () => import('./pages/wallet/WalletTransactionsPage'),
  (m) => m.default,
  portalLoading,
);
const MomoLoadsPage = screen(
  () => import('./pages/wallet/MomoLoadsPage'),
  (m) => m.default,
  portalLoading,
);
const PrepaidCardsPage = screen(
  () => import('./pages/cards/PrepaidCardsPage'),
  (m) => m.default,
  portalLoading,
);
const CardDetailPage = screen(
  () => import('./pages/cards/CardDetailPage'),
  (m) => m.default,
  portalLoading,
);
const CardSpendingPage = screen(
  () => import('./pages/cards/CardSpendingPage'),
  (m) => m.default,
  portalLoading,
);
const CardTransactionsPage = screen(
  () => import('./pages/cards/CardTransactionsPage'),
  (m) => m.default,
  portalLoading,
);
const DisputesPage = screen(
  () => import('./pages/disputes/DisputesPage'),
  (m) => m.default,
  portalLoading,
);
const DisputeDetailPage = screen(
  () => import('./pages/disputes/DisputeDetailPage'),
  (m) => m.default,
  portalLoading,
);
const UsersPage = screen(
  () => import('./pages/users/UsersPage'),
  (m) => m.default,
  portalLoading,
);
const ApiSettingsPage = screen(
  () => import('./pages/api-settings/ApiSettingsPage'),
  (m) => m.default,
  portalLoading,
);
const ApiGuidePage = screen(
  () => import('./pages/api-settings/ApiGuidePage'),
  (m) => m.default,
  portalLoading,
);

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
  disputes: <DisputesPage />,
  'disputes/:id': <DisputeDetailPage />,
  users: <UsersPage />,
  apisettings: <ApiSettingsPage />,
  'apisettings/guide': <ApiGuidePage />,
  faq: <FaqPage />,
  'help-desk': <HelpDeskPage />,
};
const built = (path: string) => path === '/portal' || path.replace(/^\/portal\//, '') in portalScreens;

/** A screen outside any layout still has its skip link and main landmark. */
function Bare({ children }: { children: ReactNode }) {
  return (
    <>
      <SkipLink />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}

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

export default function CustomerApp() {
  return (
    <>
      <ClientBridge />
      {/* Screens outside a layout (login, contact), and the layouts themselves */}
      <ScreenBoundary home="/">
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
          <Route path="/portal" element={<PortalLayout />}>
            <Route index element={<Dashboard />} />
            {Object.entries(portalScreens).map(([path, element]) => (
              <Route key={path} path={path} element={element} />
            ))}
            <Route path="*" element={<NotFound />} />
          </Route>
          <Route
            path="*"
            element={
              <Bare>
                <NotFound />
              </Bare>
            }
          />
        </Routes>
      </ScreenBoundary>
    </>
  );
}
