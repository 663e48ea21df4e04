import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Flex, Row, Skeleton, Typography } from 'antd';
import { apiData } from '@shared/api/client';
import type { MasterBalances } from '@shared/contract';
import { messageOf } from '@shared/api/errors';
import { amountText } from '@shared/ui/wallet';

/** The three master wallets of cards (back-office §2.4), each in its card brand's colours. */
const WALLETS: Array<{ key: keyof MasterBalances; title: string; brand: string; background: string }> = [
  {
    key: 'general',
    title: 'General',
    brand: 'Mastercard',
    background: 'linear-gradient(135deg, #0b0b10 0%, #23232b 55%, #3b3220 100%)',
  },
  {
    key: 'media',
    title: 'Media',
    brand: 'Visa',
    background: 'linear-gradient(135deg, #111451 0%, #1a1f71 45%, #5b21b6 100%)',
  },
  {
    key: 'tokencard',
    title: 'Tokencard',
    brand: 'Tokenised Cards',
    background: 'linear-gradient(135deg, #0f766e 0%, #14b8a6 60%, #5eead4 100%)',
  },
];

const MASTER_BALANCE_KEY = ['wallet', 'master-balance'] as const;

/** GET /wallet/master-balance: available and ledger balances (USD) of general, media and tokencard. */
export function MasterBalancesCard() {
  const q = useQuery({
    queryKey: MASTER_BALANCE_KEY,
    queryFn: () => apiData<MasterBalances>('GET', '/wallet/master-balance', { silent: true }),
  });
  if (q.error)
    return <Alert type="error" showIcon message={messageOf(q.error, 'Could not load the master balances.')} />;
  return (
    <Row gutter={[16, 16]} role="region" aria-label="Master balances">
      {WALLETS.map((w) => {
        const b = q.data?.[w.key];
        return (
          <Col xs={24} md={8} key={w.key}>
            <Card
              role="group"
              data-testid={`master-balance-${w.key}`}
              aria-label={`${w.title} (${w.brand}) master wallet`}
              style={{ background: w.background, color: '#fff', border: 'none', height: '100%' }}
              styles={{ body: { padding: 20 } }}
            >
              <Flex justify="space-between" align="baseline" gap={8}>
                <Typography.Text strong style={{ color: '#fff', fontSize: 16 }}>
                  {w.title}
                </Typography.Text>
                <Typography.Text
                  style={{
                    color: 'rgba(255,255,255,0.75)',
                    fontSize: 12,
                    letterSpacing: 1,
                    textTransform: 'uppercase',
                  }}
                >
                  {w.brand}
                </Typography.Text>
              </Flex>
              {q.isLoading || !b ? (
                <Skeleton active title={false} paragraph={{ rows: 2 }} style={{ marginTop: 12 }} />
              ) : (
                <Flex justify="space-between" gap={12} style={{ marginTop: 14 }} wrap>
                  <div>
                    <div style={{ color: 'rgba(255,255,255,0.75)', fontSize: 12 }}>Available</div>
                    <div
                      style={{ fontSize: 22, fontWeight: 600, whiteSpace: 'nowrap' }}
                      data-testid={`master-available-${w.key}`}
                    >
                      USD {amountText(b.available)}
                    </div>
                  </div>
                  <div style={{ textAlign: 'right' }}>
                    <div style={{ color: 'rgba(255,255,255,0.75)', fontSize: 12 }}>Ledger</div>
                    <div
                      style={{ fontSize: 16, fontWeight: 500, whiteSpace: 'nowrap' }}
                      data-testid={`master-ledger-${w.key}`}
                    >
                      USD {amountText(b.ledger)}
                    </div>
                  </div>
                </Flex>
              )}
            </Card>
          </Col>
        );
      })}
    </Row>
  );
}
