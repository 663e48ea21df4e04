import { CheckOutlined, CopyOutlined, LinkOutlined } from '@ant-design/icons';
import { Button, Flex, Grid } from 'antd';
import { useState } from 'react';
import { keyGroups, totpUri } from '../totp';

interface Props {
  qrcode: string;
  secret: string;
  /** the account the key is for: the link's label in the app */
  email: string;
  /** the QR image's text alternative */
  alt: string;
  testId: string;
}

/**
 * A new 2FA key for an authenticator app. On a phone the app is on this very device, so a QR code
 * cannot be scanned: a link opens the app with the key, and the QR waits behind a disclosure for
 * the case it is on another device. The key is shown in groups of four (spaces drawn by CSS, so
 * selecting or copying it gives the key as one string) with a copy button.
 */
export function AuthenticatorKey({ qrcode, secret, email, alt, testId }: Props) {
  const phone = Grid.useBreakpoint().md === false;
  const [copied, setCopied] = useState(false);
  const clean = secret.replace(/\s+/g, '');
  const qr = (
    <img
      src={`data:image/svg+xml;base64,${qrcode}`}
      alt={alt}
      width={180}
      height={180}
      style={{ border: '1px solid #e5e7eb', borderRadius: 8, padding: 8, background: '#fff' }}
    />
  );
  const copy = async () => {
    await navigator.clipboard?.writeText(clean).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <Flex vertical align="center" gap={12} style={{ marginBottom: 16 }}>
      {phone ? (
        <>
          <Button type="primary" size="large" block icon={<LinkOutlined />} href={totpUri(clean, email)}>
            Open in authenticator
          </Button>
          <details className="cw-qr-elsewhere">
            <summary>Authenticator on another device? Show the QR code</summary>
            <div style={{ textAlign: 'center', paddingTop: 8 }}>{qr}</div>
          </details>
        </>
      ) : (
        qr
      )}
      <div style={{ textAlign: 'center' }}>
        <div className="cw-muted">
          {phone ? 'Or type this key into the app:' : "Can't scan it? Type this key into the app:"}
        </div>
        <Flex align="center" justify="center" gap={4} wrap>
          <code className="cw-key" data-testid={testId}>
            {keyGroups(clean).map((g, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the groups are positions of one key
              <span key={i}>{g}</span>
            ))}
          </code>
          <Button
            type="text"
            size="small"
            icon={copied ? <CheckOutlined /> : <CopyOutlined />}
            aria-label={copied ? 'Key copied' : 'Copy key'}
            onClick={copy}
          />
        </Flex>
      </div>
    </Flex>
  );
}
