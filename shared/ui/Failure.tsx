import { CloseCircleFilled } from '@ant-design/icons';
import { theme } from 'antd';
import type { ReactNode } from 'react';

/**
 * What antd's `<Result status="error">` shows, without Result itself: Result brings its 404, 403 and
 * 500 illustrations (about 10 KB gzipped) into every screen that may fail, the login screen included.
 */
export function Failure({
  title,
  subTitle,
  extra,
  children,
}: {
  title: ReactNode;
  subTitle?: ReactNode;
  extra?: ReactNode;
  children?: ReactNode;
}) {
  const { token } = theme.useToken();
  return (
    <div style={{ padding: '48px 32px', textAlign: 'center' }}>
      <CloseCircleFilled style={{ fontSize: 72, color: token.colorError, marginBottom: 24 }} />
      <div style={{ color: token.colorTextHeading, fontSize: 24, lineHeight: 1.35, marginBlock: 8 }}>{title}</div>
      {subTitle && <div style={{ color: token.colorTextDescription, fontSize: 14 }}>{subTitle}</div>}
      {extra && (
        <div style={{ marginTop: 24, display: 'flex', gap: 8, justifyContent: 'center', flexWrap: 'wrap' }}>
          {extra}
        </div>
      )}
      {children && (
        <div
          style={{
            marginTop: 24,
            padding: '24px 40px',
            background: token.colorFillAlter,
            borderRadius: token.borderRadiusLG,
          }}
        >
          {children}
        </div>
      )}
    </div>
  );
}
