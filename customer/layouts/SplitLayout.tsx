import { ArrowLeftOutlined, HomeOutlined } from '@ant-design/icons';
import { Col, Grid, Row } from 'antd';
import type { ReactNode } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { ScreenBoundary } from '@shared/ui/ScreenBoundary';
import { SkipLink } from '@shared/ui/SkipLink';
import { Paragraph } from '@shared/ui/Type';

/** The marketing panel beside every sign-up and login form; hidden on small screens. */
function MarketingPanel({ link }: { link: ReactNode }) {
  return (
    <div
      className="cw-marketing"
      style={{
        boxSizing: 'border-box',
        height: '100%',
        minHeight: '100vh',
        padding: '32px 48px',
        display: 'flex',
        flexDirection: 'column',
      }}
    >
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
        <img src="/logo-light.svg" alt="Cardwallet" height={36} />
        {link}
      </div>
      <div style={{ margin: 'auto 0', maxWidth: 520 }}>
        {/* A slogan, not a heading: the form's title is the screen's one h1 (the panel is hidden on phones). */}
        <p style={{ color: '#fff', fontSize: 40, lineHeight: 1.15, fontWeight: 600, margin: '0 0 0.5em' }}>
          Welcome to the future of finance
        </p>
        <Paragraph style={{ color: 'rgba(255,255,255,0.82)', fontSize: 18 }}>
          Say hello to a world where your cryptocurrency holdings become easily accessible for everyday transactions
        </Paragraph>
        <img src="/cards-hero.svg" alt="" style={{ width: '100%', maxWidth: 440, marginTop: 24 }} />
      </div>
      <span style={{ color: 'rgba(255,255,255,0.6)' }}>USDT master wallet · Virtual Visa and Mastercard cards</span>
    </div>
  );
}

const linkStyle = { color: '#fff', display: 'inline-flex', gap: 6, alignItems: 'center' } as const;
// Back is an action, not a place: a button that looks like the Home link.
const backStyle = {
  ...linkStyle,
  background: 'none',
  border: 0,
  padding: 0,
  font: 'inherit',
  cursor: 'pointer',
} as const;

export function SplitLayout({ panel, children }: { panel: 'left' | 'right'; children: ReactNode }) {
  const screens = Grid.useBreakpoint();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const wide = screens.lg ?? true;
  const link =
    panel === 'left' ? (
      <Link to="/" style={linkStyle}>
        <HomeOutlined /> Home
      </Link>
    ) : (
      <button type="button" style={backStyle} onClick={() => navigate(-1)}>
        <ArrowLeftOutlined /> Back
      </button>
    );
  const form = (
    <Col xs={24} lg={12} style={{ background: '#fff', minHeight: '100vh', display: 'flex' }}>
      <main
        id="main"
        tabIndex={-1}
        style={{ width: '100%', maxWidth: 460, margin: 'auto', padding: wide ? '48px 24px' : '32px 20px' }}
      >
        {!wide && <img src="/logo.svg" alt="Cardwallet" height={32} style={{ marginBottom: 24 }} />}
        {children}
        {/* A logged-out visitor's only way to support. */}
        {pathname !== '/contact' && (
          <Paragraph secondary style={{ marginTop: 24, textAlign: 'center' }}>
            Need help? <Link to="/contact">Contact us</Link>
          </Paragraph>
        )}
      </main>
    </Col>
  );
  const marketing = wide ? (
    <Col lg={12}>
      <MarketingPanel link={link} />
    </Col>
  ) : null;
  return (
    <>
      <SkipLink />
      <Row style={{ minHeight: '100vh' }}>{panel === 'left' ? [marketing, form] : [form, marketing]}</Row>
    </>
  );
}

export function OnboardingLayout() {
  return (
    <SplitLayout panel="right">
      <ScreenBoundary home="/onboarding">
        <Outlet />
      </ScreenBoundary>
    </SplitLayout>
  );
}
