import { App as AntApp, ConfigProvider } from 'antd';
import enGB from 'antd/locale/en_GB';
import type { ReactNode } from 'react';
import { theme } from './theme';

export function Providers({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider theme={theme} locale={enGB}>
      <AntApp message={{ maxCount: 20, duration: 4 }} notification={{ maxCount: 20 }}>
        {children}
      </AntApp>
    </ConfigProvider>
  );
}
