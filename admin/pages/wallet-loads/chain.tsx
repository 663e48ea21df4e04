import { moneyText } from '@shared/vocabulary';
import { Alert, Tag, Typography } from 'antd';
import type { ChainCheck } from '@shared/contract';
import { Details } from '../../components/Details';
import { dateTime } from '../../format';

/**
 * What the chain said about the hash the customer gave, shown beside Approve and Deny: a hash the
 * server could not settle by itself (another address, another amount, not found, the chain not
 * answering) is decided by a person, who should see the facts instead of looking them up.
 */
export function ChainFacts({ check }: { check: ChainCheck }) {
  const checked = `Checked ${dateTime(check.checked_at)}.`;
  if (check.unavailable) {
    return (
      <Alert
        type="warning"
        showIcon
        message="The chain could not be asked"
        description={`${checked} Check the hash on a Tron explorer before approving.`}
        data-testid="chain-facts"
      />
    );
  }
  if (!check.found) {
    return (
      <Alert
        type="warning"
        showIcon
        message="Not found on the chain"
        description={`${checked} No USDT transfer has this hash.`}
        data-testid="chain-facts"
      />
    );
  }
  const settled = check.settled ? 'settled' : 'still confirming';
  return (
    <section aria-label="On the chain" data-testid="chain-facts">
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        On the chain
      </Typography.Title>
      <Details
        label="On the chain"
        items={[
          ['Found', 'Yes'],
          [
            'To',
            <Typography.Text key="to" className="cw-hash" copyable style={{ wordBreak: 'break-all' }}>
              {check.to ?? '—'}
            </Typography.Text>,
          ],
          ['Amount', check.amount ? moneyText(check.amount, 'USDT') : '—'],
          ['Confirmations', check.confirmations === undefined ? '—' : `${check.confirmations} (${settled})`],
          [
            'Matches',
            check.matches ? (
              <Tag key="m" color="green">
                Yes: this wallet, this amount
              </Tag>
            ) : (
              <Tag key="m" color="red">
                No: another address or amount
              </Tag>
            ),
          ],
        ]}
      />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {checked}
      </Typography.Text>
    </section>
  );
}
