import { CreditCardOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useCardList } from '@shared/ui/cards';

/** A customer without a card yet is shown the way to the first one (nothing while the list loads or fails). */
export function FirstCard() {
  const navigate = useNavigate();
  const cards = useCardList({});
  if (!cards.data || cards.data.length > 0) return null;
  return (
    <Card data-testid="first-card">
      <Flex gap={16} align="center" wrap>
        <CreditCardOutlined aria-hidden style={{ fontSize: 36, color: '#1d4ed8' }} />
        <div style={{ flex: '1 1 240px' }}>
          <Typography.Title level={2} style={{ fontSize: 18, margin: 0 }}>
            Create your first card
          </Typography.Title>
          <Typography.Text type="secondary">
            A virtual Visa or Mastercard, loaded from your master wallet, ready to pay online in a minute.
          </Typography.Text>
        </div>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => navigate('/portal/prepaid-cards', { state: { create: true } })}
        >
          Create a card
        </Button>
      </Flex>
    </Card>
  );
}
