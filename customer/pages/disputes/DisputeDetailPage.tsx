import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Popconfirm, Skeleton } from 'antd';
import { Link, useParams } from 'react-router';
import { apiData } from '@shared/api/client';
import { messageOf } from '@shared/api/errors';
import type { ApiDisputeDetail } from '@shared/contract';
import { PageHeader } from '@shared/ui/PageHeader';
import { useSession } from '@shared/ui/useSession';
import { useSubmit } from '@shared/ui/useSubmit';
import { DisputeDetails } from '@shared/ui/disputes/DisputeDetails';
import { DISPUTE_KEYS } from '@shared/ui/disputes/PaymentDisputes';

/** /portal/disputes/{id}: one dispute, its state, outcome and history; the owner may withdraw it while open. */
export default function DisputeDetailPage() {
  const { id = '' } = useParams();
  const session = useSession();
  const client = useQueryClient();
  const { message } = App.useApp();
  const { busy, submit } = useSubmit();
  const query = useQuery({
    queryKey: [...DISPUTE_KEYS.all, 'one', id],
    queryFn: () => apiData<ApiDisputeDetail>('GET', `/disputes/${id}`, { silent: true }),
  });
  const d = query.data;
  const open = d && (d.state === 'submitted' || d.state === 'under_review');
  const mayWithdraw = open && session?.user.role !== 'Company-User';
  async function withdraw() {
    const r = await submit((key) =>
      apiData<ApiDisputeDetail>('POST', `/disputes/${id}/withdraw`, { body: {}, idempotencyKey: key, silent: true }),
    );
    if (r.ok) {
      message.success('The dispute was withdrawn.');
      client.setQueryData([...DISPUTE_KEYS.all, 'one', id], r.data);
      void client.invalidateQueries({ queryKey: DISPUTE_KEYS.all });
    } else message.error(messageOf(r.error, 'The dispute could not be withdrawn.'));
  }
  return (
    <>
      <Link to="/portal/disputes">
        <ArrowLeftOutlined /> Back to Card Disputes
      </Link>
      <PageHeader
        title="Card Dispute"
        extra={
          mayWithdraw && (
            <Popconfirm
              title="Withdraw this dispute?"
              description="A provisional credit, if any, is taken back from the card."
              okText="Withdraw"
              onConfirm={withdraw}
            >
              <Button danger loading={busy}>
                Withdraw
              </Button>
            </Popconfirm>
          )
        }
      />
      <Card>
        {query.error ? (
          <Alert type="error" showIcon message={messageOf(query.error, 'The dispute could not be loaded.')} />
        ) : d ? (
          <DisputeDetails dispute={d} />
        ) : (
          <Skeleton active />
        )}
      </Card>
    </>
  );
}
