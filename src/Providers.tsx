import { App as AntApp, ConfigProvider } from 'antd';
import enGB from 'antd/locale/en_GB';
import { type ReactNode, useMemo, useSyncExternalStore } from 'react';
import { theme } from './theme';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/** Whether the user asked their system for less motion (WCAG 2.3.3); follows a change while the app is open. */
function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    (changed) => {
      const query = window.matchMedia(REDUCED_MOTION);
      query.addEventListener('change', changed);
      return () => query.removeEventListener('change', changed);
    },
    () => window.matchMedia(REDUCED_MOTION).matches,
  );
}

export function Providers({ children }: { children: ReactNode }) {
  const reduced = usePrefersReducedMotion();
  // antd's motion token switches off every dialog, drawer, menu and message animation at once.
  const themed = useMemo(() => (reduced ? { ...theme, token: { ...theme.token, motion: false } } : theme), [reduced]);
  return (
    <ConfigProvider theme={themed} locale={enGB}>
      <AntApp message={{ maxCount: 20, duration: 4 }} notification={{ maxCount: 20 }}>
        {children}
      </AntApp>
    </ConfigProvider>
  );
}
