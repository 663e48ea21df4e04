import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Flex, Popconfirm, Skeleton } from 'antd';
import { Link, useParams } from 'react-router';
import { apiData } from '@shared/api/client';
import { messageOf } from '@shared/api/errors';
import type { ApiDisputeDetail } from '@shared/contract';
import { PageHeader } from '@shared/ui/PageHeader';
import { useSubmit } from '@shared/ui/useSubmit';
import { DisputeDetails } from '@shared/ui/disputes/DisputeDetails';
import { useCan } from '../../components/Allowed';

/**
 * /admin/disputes/{id}: a dispute in full, with its history. Staff who may send disputes send a
 * submitted one to the card issuer; while the issuer is the sandbox, staff who simulate payments
 * decide one under review as the issuer would.
 */
export default function DisputeShow() {
  const { id = '' } = useParams();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const { busy, submit } = useSubmit();
  const canSubmit = useCan('disputes.submit');
  const canSimulate = useCan('cards.simulate');
  const key = ['disputes', 'staff', id];
  const query = useQuery({
    queryKey: key,
    queryFn: () => apiData<ApiDisputeDetail>('GET', `/disputes/${id}`, { silent: true }),
  });
  const d = query.data;
  async function act(path: string, body: object, done: string) {
    const r = await submit((k) => apiData<ApiDisputeDetail>('POST', path, { body, idempotencyKey: k, silent: true }));
    if (!r.ok) return void message.error(messageOf(r.error, 'That did not work. Please try again.'), 4);
    qc.setQueryData(key, r.data);
    void qc.invalidateQueries({ queryKey: ['disputes'] });
    message.success(done, 2);
  }
  const actions = d && (
    <Flex gap={8} wrap>
      {d.state === 'submitted' && canSubmit && (
        <Popconfirm
          title="Send this dispute to the card issuer?"
          okText="Send"
          onConfirm={() => act(`/disputes/${id}/submit`, {}, 'Sent to the card issuer.')}
        >
          <Button type="primary" loading={busy}>
            Submit to issuer
          </Button>
        </Popconfirm>
      )}
      {d.state === 'under_review' && canSimulate && (
        <>
          <Button
            loading={busy}
            onClick={() =>
              act(`/sandbox/disputes/${id}/resolve`, { outcome: 'won' }, 'The sandbox issuer decided: won.')
            }
          >
            Resolve as won (sandbox)
          </Button>
          <Button
            danger
            loading={busy}
            onClick={() =>
              act(`/sandbox/disputes/${id}/resolve`, { outcome: 'lost' }, 'The sandbox issuer decided: lost.')
            }
          >
            Resolve as lost (sandbox)
          </Button>
        </>
      )}
    </Flex>
  );
  return (
    <>
      <Link to="/admin/disputes">
        <ArrowLeftOutlined /> Back to Disputes
      </Link>
      <PageHeader title="Dispute" extra={actions} />
      <Card style={{ maxWidth: 900 }}>
        {query.error ? (
          <Alert type="error" showIcon message={messageOf(query.error, 'The dispute could not be loaded.')} />
        ) : d ? (
          <Flex vertical gap={12}>
            <Link to={`/admin/cards/${d.card_id}`}>Open the card</Link>
            <DisputeDetails dispute={d} staff />
          </Flex>
        ) : (
          <Skeleton active />
        )}
      </Card>
    </>
  );
}
