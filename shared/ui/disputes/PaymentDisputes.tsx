import { ExceptionOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Flex, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client';
import type { ApiCardTransaction, ApiDispute, Paged } from '../../contract';
import { isStaff } from '../../contract/roles';
import { usd } from '../cards/format';
import { useSession } from '../useSession';
import { DisputeStateTag, reasonText } from './DisputeDetails';
import { DisputeForm } from './DisputeForm';

export const DISPUTE_KEYS = {
  all: ['disputes'] as const,
  ofPayment: (id: string) => ['disputes', 'payment', id] as const,
};

/** A payment that may have cleared: a settled or pending authorisation, a charge without one, or a clearing. */
const mayDispute = (tx: ApiCardTransaction) =>
  (tx.kind === 'authorization' && tx.status !== 'declined') || tx.kind === 'force_post' || tx.kind === 'clearing';

/**
 * A payment's disputes in its details panel (with a link to each) and, for the card's owner, the
 * "Dispute" action while the payment has no open dispute. The server decides what may be disputed.
 */
export function PaymentDisputes({ tx }: { tx: ApiCardTransaction }) {
  const session = useSession();
  const staff = isStaff(session?.user.role);
  const owner = !staff && session?.user.role !== 'Company-User';
  const paymentId = tx.kind === 'clearing' && tx.authorization_id ? tx.authorization_id : tx.id;
  const [open, setOpen] = useState(false);
  const client = useQueryClient();
  const query = useQuery({
    queryKey: DISPUTE_KEYS.ofPayment(paymentId),
    queryFn: () =>
      api<Paged<ApiDispute>>('GET', '/disputes', { query: { transaction_id: paymentId, per_page: 10 }, silent: true }),
    enabled: mayDispute(tx),
  });
  if (!mayDispute(tx)) return null;
  const disputes = query.data?.data ?? [];
  const openOne = disputes.some((d) => d.state === 'submitted' || d.state === 'under_review');
  const base = staff ? '/admin/disputes' : '/portal/disputes';
  return (
    <Flex vertical gap={8} style={{ marginTop: 16 }} data-testid="payment-disputes">
      {disputes.length > 0 && <Typography.Text strong>Disputes</Typography.Text>}
      {disputes.map((d) => (
        <Flex key={d.id} gap={8} align="center" wrap>
          <DisputeStateTag state={d.state} />
          <Link to={`${base}/${d.id}`}>
            {reasonText(d.reason)}: {usd(d.amount)}
          </Link>
        </Flex>
      ))}
      {owner && !openOne && !query.isLoading && (
        <Button icon={<ExceptionOutlined />} onClick={() => setOpen(true)}>
          Dispute
        </Button>
      )}
      {owner && (
        <DisputeForm
          tx={tx}
          open={open}
          onClose={() => setOpen(false)}
          onDone={() => {
            setOpen(false);
            void client.invalidateQueries({ queryKey: DISPUTE_KEYS.all });
          }}
        />
      )}
    </Flex>
  );
}
