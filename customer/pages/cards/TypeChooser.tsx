import { CheckCircleFilled, MinusCircleOutlined } from '@ant-design/icons';
import { Button, Card, Col, Row, Tag, Typography } from 'antd';
import type { CardType } from '@shared/contract';
import { useIsPhone } from '@shared/ui/wallet';
import { SwipeStack } from './SwipeStack';

/** The card types and what each offers (customer-portal §2, type chooser). */
const CARD_FEATURES: Record<CardType, string[]> = {
  premium: [
    'Unlimited top-ups',
    'Withdrawals to main wallet',
    'Best for recurring payments',
    'Works almost everywhere',
    'Freeze or delete at any moment',
    'Monthly maintenance fee of $2 for all Active cards',
  ],
  basic: [
    'One-time top-up at creation',
    'Cannot withdraw to master wallet',
    'Best for one-time payments',
    'Monthly maintenance fee of $2 for Active cards',
    'Works anywhere a Visa card is accepted',
    'Cannot be frozen but can be deleted at any moment',
  ],
};

/** What a type cannot do is listed without a tick: a tick says "you get this". */
const isLimitation = (feature: string) => feature.startsWith('Cannot');

const TITLES: Record<CardType, string> = { premium: 'Premium', basic: 'Basic' };

function TypeCard({ type, onCreate }: { type: CardType; onCreate(t: CardType): void }) {
  const premium = type === 'premium';
  return (
    <Card
      role="group"
      aria-label={`${TITLES[type]} card`}
      style={{
        height: '100%',
        borderColor: premium ? '#1d4ed8' : undefined,
        borderWidth: premium ? 2 : 1,
        background: '#fff',
      }}
      styles={{ body: { display: 'flex', flexDirection: 'column', height: '100%', padding: 20 } }}
    >
      <Typography.Title level={4} style={{ marginTop: 0, display: 'flex', alignItems: 'center', gap: 8 }}>
        {TITLES[type]}
        {premium && <Tag color="blue">Recurring</Tag>}
        {!premium && <Tag>One-time</Tag>}
      </Typography.Title>
      <ul style={{ listStyle: 'none', margin: 0, padding: 0, flex: 1 }}>
        {CARD_FEATURES[type].map((f) => (
          <li
            key={f}
            data-limitation={isLimitation(f) || undefined}
            style={{ display: 'flex', gap: 10, alignItems: 'flex-start', padding: '7px 0' }}
          >
            {isLimitation(f) ? (
              <MinusCircleOutlined aria-hidden style={{ color: '#6b7280', marginTop: 4, flexShrink: 0 }} />
            ) : (
              <CheckCircleFilled
                aria-hidden
                style={{ color: premium ? '#1d4ed8' : '#16a34a', marginTop: 4, flexShrink: 0 }}
              />
            )}
            <span>{f}</span>
          </li>
        ))}
      </ul>
      <Button
        type={premium ? 'primary' : 'default'}
        block
        size="large"
        style={{ marginTop: 16 }}
        onClick={() => onCreate(type)}
      >
        Create Card
      </Button>
    </Card>
  );
}

/** Premium and Basic side by side; on small screens a swipeable stack. */
export function TypeChooser({ onCreate }: { onCreate(t: CardType): void }) {
  const phone = useIsPhone();
  const types: CardType[] = ['premium', 'basic'];
  if (phone) {
    return (
      <SwipeStack
        labels={types.map((t) => TITLES[t])}
        items={types.map((t) => <TypeCard key={t} type={t} onCreate={onCreate} />)}
      />
    );
  }
  return (
    <Row gutter={[24, 24]} style={{ maxWidth: 880 }}>
      {types.map((t) => (
        <Col key={t} xs={24} md={12}>
          <TypeCard type={t} onCreate={onCreate} />
        </Col>
      ))}
    </Row>
  );
}
