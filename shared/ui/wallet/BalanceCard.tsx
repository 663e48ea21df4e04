import { Card, Flex, Skeleton, Typography } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import { useIsPhone } from './useIsPhone';
import { useWalletBalance } from './useWalletBalance';
import { amountText } from './format';

/**
 * 'Master Wallet Balance' as 'USDT {balance}': a skeleton while loading, 'N/A' when there is no
 * such wallet. Optionally the wallet id with a copy button (what others need to send to it).
 */
export function BalanceCard({
  walletId,
  actions,
  showWalletId = true,
  style,
}: {
  walletId: string | null | undefined;
  actions?: ReactNode;
  showWalletId?: boolean;
  /** e.g. height 100% beside another card */
  style?: CSSProperties;
}) {
  const phone = useIsPhone();
  const { loading, balance, error } = useWalletBalance(walletId);
  return (
    <Card styles={{ body: { padding: phone ? 16 : 24 } }} style={style} aria-label="Master Wallet Balance">
      <Flex justify="space-between" align={phone ? 'stretch' : 'center'} gap={16} vertical={phone}>
        <div style={{ minWidth: 0 }}>
          <Typography.Text type="secondary">Master Wallet Balance</Typography.Text>
          <div style={{ minHeight: 44, display: 'flex', alignItems: 'center' }}>
            {loading ? (
              <span role="status" aria-label="Loading balance">
                <Skeleton.Input active size="large" style={{ width: 200 }} />
              </span>
            ) : (
              <Typography.Title level={2} style={{ margin: 0, whiteSpace: 'nowrap' }} data-testid="wallet-balance">
                {balance === null ? 'N/A' : `USDT ${amountText(balance)}`}
              </Typography.Title>
            )}
          </div>
          {error && <Typography.Text type="danger">{error}</Typography.Text>}
          {showWalletId && walletId && (
            <div style={{ marginTop: 4, fontSize: 13 }}>
              <Typography.Text type="secondary" style={phone ? { display: 'block' } : undefined}>
                Wallet ID:{' '}
              </Typography.Text>
              <Typography.Text
                copyable={{ text: walletId, tooltips: ['Copy wallet ID', 'Copied'] }}
                style={{ fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' }}
              >
                {walletId}
              </Typography.Text>
            </div>
          )}
        </div>
        {actions && (
          <Flex gap={8} style={phone ? { width: '100%' } : undefined}>
            {actions}
          </Flex>
        )}
      </Flex>
    </Card>
  );
}
