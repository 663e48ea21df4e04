import { DownloadOutlined } from '@ant-design/icons';
import { Button, Flex, Tag, Timeline, Typography } from 'antd';
import { useState } from 'react';
import { apiDownload } from '../../api/client';
import { messageOf } from '../../api/errors';
import type { ApiDispute, ApiDisputeDetail } from '../../contract';
import { DISPUTE_REASON_NAMES, DISPUTE_STATE_NAMES } from '../../vocabulary';
import { usd } from '../cards/format';
import { formatSize } from '../fileSize';
import { DetailRows } from '../wallet/DetailsDrawer';
import { dateTime } from '../wallet/format';

const STATE_COLORS: Record<ApiDispute['state'], string> = {
  submitted: 'blue',
  under_review: 'gold',
  won: 'green',
  lost: 'red',
  withdrawn: 'default',
};

export const DisputeStateTag = ({ state }: { state: ApiDispute['state'] }) => (
  <Tag color={STATE_COLORS[state]} style={{ marginInlineEnd: 0 }} data-testid="dispute-state">
    {DISPUTE_STATE_NAMES[state]}
  </Tag>
);

export const reasonText = (r: ApiDispute['reason']) => DISPUTE_REASON_NAMES[r];

/** An evidence file: fetched with the signed-in person's token (files are never plain links). */
function EvidenceFile({ file }: { file: ApiDispute['evidence'][number] }) {
  const [error, setError] = useState<string>();
  const download = async () => {
    try {
      const { blob } = await apiDownload(`/files/${file.id}`, undefined, undefined, file.content_type);
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = file.name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (e) {
      setError(messageOf(e, 'The file could not be downloaded.'));
    }
  };
  return (
    <Flex vertical>
      <Button type="link" size="small" icon={<DownloadOutlined />} onClick={download} style={{ padding: 0 }}>
        {file.name} ({formatSize(file.size)})
      </Button>
      {error && <Typography.Text type="danger">{error}</Typography.Text>}
    </Flex>
  );
}

/** What the outcome means for the card, in one sentence. */
function outcomeText(d: ApiDispute, staff?: boolean): string | null {
  switch (d.state) {
    case 'won':
      return staff ? `Won: ${usd(d.amount)} is on the card.` : `You won: ${usd(d.amount)} is on the card.`;
    case 'lost':
      return d.provisional_credit !== '0.00'
        ? `The issuer decided against the dispute; the provisional credit of ${usd(d.provisional_credit)} was taken back.`
        : 'The issuer decided against the dispute.';
    case 'withdrawn':
      return 'The dispute was withdrawn.';
    case 'under_review':
      return d.credited !== '0.00'
        ? `The card issuer is reviewing it. ${usd(d.credited)} was credited to the card meanwhile.`
        : 'The card issuer is reviewing it.';
    default:
      return 'Waiting to be sent to the card issuer.';
  }
}

/** A dispute in full: the payment, the claim, its evidence, its state and each step of its history. */
export function DisputeDetails({ dispute: d, staff }: { dispute: ApiDisputeDetail; staff?: boolean }) {
  return (
    <Flex vertical gap={16}>
      <Typography.Text strong data-testid="dispute-outcome">
        {outcomeText(d, staff)}
      </Typography.Text>
      <DetailRows
        rows={[
          { label: 'State', value: <DisputeStateTag state={d.state} /> },
          ...(staff ? [{ label: 'Customer', value: d.owner_name }] : []),
          { label: 'Card', value: `${d.card_nickname}${d.card_last4 ? ` •••• ${d.card_last4}` : ''}` },
          { label: 'Merchant', value: d.merchant },
          { label: 'Payment', value: `${usd(d.payment_amount)} on ${dateTime(d.payment_date)}` },
          { label: 'Reason', value: reasonText(d.reason) },
          { label: 'Amount Disputed', value: usd(d.amount) },
          { label: 'Explanation', value: <span style={{ whiteSpace: 'pre-wrap' }}>{d.explanation}</span> },
          {
            label: 'Evidence',
            value: d.evidence.length ? d.evidence.map((f) => <EvidenceFile key={f.id} file={f} />) : 'None',
          },
          { label: 'Provisional Credit', value: usd(d.provisional_credit) },
          { label: 'Credited', value: usd(d.credited) },
          ...(staff ? [{ label: 'Issuer Reference', value: d.issuer_reference ?? '-' }] : []),
          { label: 'Date Created', value: dateTime(d.created_at) },
        ]}
      />
      <div>
        <Typography.Title level={2} style={{ fontSize: 16 }}>
          History
        </Typography.Title>
        <Timeline
          items={d.history.map((h) => ({
            color: STATE_COLORS[h.state] === 'default' ? 'gray' : STATE_COLORS[h.state],
            children: (
              <Flex vertical gap={2}>
                <span>
                  <strong>{DISPUTE_STATE_NAMES[h.state]}</strong> · {h.actor}
                </span>
                <Typography.Text type="secondary">{dateTime(h.at)}</Typography.Text>
                {h.note && <span>{h.note}</span>}
              </Flex>
            ),
          }))}
        />
      </div>
    </Flex>
  );
}
