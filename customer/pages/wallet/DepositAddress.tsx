import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Flex, Skeleton, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { apiData } from '@shared/api/client';
import { messageOf } from '@shared/api/errors';
import type { DepositAddress } from '@shared/contract';
import { useIsPhone } from '@shared/ui/wallet';

/** The wallet's own Tron address; it never changes, so it is read once per session. */
function useDepositAddress(walletId: string | null | undefined) {
  return useQuery({
    queryKey: ['deposit-address', walletId],
    queryFn: () =>
      apiData<DepositAddress>('GET', `/wallet/deposit-address/${encodeURIComponent(walletId!)}`, { silent: true }),
    enabled: !!walletId,
    staleTime: Infinity,
  });
}

/**
 * The address as a QR code for a phone's wallet app to scan. `qrcode` (the library the server's
 * 2FA QR uses) is loaded only when a QR is shown: the portal's first screens stay light.
 */
export function AddressQr({ address, size }: { address: string; size: number }) {
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    let live = true;
    void import('qrcode')
      .then((QR) => QR.toString(address, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }))
      .then((svg) => live && setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`))
      .catch(() => live && setSrc(undefined));
    return () => {
      live = false;
    };
  }, [address]);
  const box = {
    width: size,
    height: size,
    flex: 'none',
    background: '#fff',
    borderRadius: 8,
    border: '1px solid #f0f0f0',
    padding: 4,
  } as const;
  return src ? (
    <img src={src} alt="QR code of the deposit address" data-testid="deposit-qr" style={box} />
  ) : (
    <div style={box} role="status" aria-label="Drawing the QR code" />
  );
}

/** The address in full (a Tron address is 34 characters: it fits a phone at this size), with its copy button. */
export function AddressText({ address }: { address: string }) {
  return (
    <Typography.Text
      copyable={{ text: address, tooltips: ['Copy deposit address', 'Copied'] }}
      data-testid="deposit-address"
      style={{ fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' }}
    >
      {address}
    </Typography.Text>
  );
}

/** What may be sent there: said wherever the address is shown, since anything else is lost. */
export const ONLY_USDT_TRON =
  'Send only USDT on the Tron network (TRC20). Other tokens or networks cannot be recovered.';

/**
 * The master wallet screen's 'Deposit Address' card: the QR, the address with a copy button, the
 * network, and that a deposit credits itself once confirmed (no top-up needs to be opened first).
 */
export function DepositAddressCard({ walletId }: { walletId: string }) {
  const phone = useIsPhone();
  const q = useDepositAddress(walletId);
  let body: React.ReactNode;
  if (q.isLoading) body = <Skeleton active paragraph={{ rows: 2 }} />;
  else if (q.error || !q.data)
    body = <Alert type="error" showIcon message={messageOf(q.error, 'Could not load your deposit address.')} />;
  else {
    const { address, network } = q.data;
    body = (
      <Flex gap={16} align={phone ? 'center' : 'flex-start'} vertical={phone}>
        <AddressQr address={address} size={phone ? 160 : 112} />
        <Flex vertical gap={6} style={{ minWidth: 0, width: phone ? '100%' : undefined }}>
          <div>
            <Typography.Text type="secondary">Network: </Typography.Text>
            <Typography.Text strong>{network}</Typography.Text>
          </div>
          <AddressText address={address} />
          <Typography.Text type="secondary" style={{ fontSize: 13 }}>
            {ONLY_USDT_TRON} Deposits are credited automatically once the network confirms them, usually within minutes,
            less the Tron top-up fee.
          </Typography.Text>
        </Flex>
      </Flex>
    );
  }
  return (
    <Card
      title="Deposit Address"
      size="small"
      styles={{ body: { padding: phone ? 12 : 16 } }}
      style={{ height: '100%' }}
      role="region"
      aria-label="Deposit Address"
    >
      {body}
    </Card>
  );
}
