import { EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { Button, Descriptions, Flex, Typography } from 'antd';
import { useState } from 'react';
import type { ApiCardDetail } from '../../contract';
import { centsOf } from '../../money';
import { useIsPhone } from '../wallet/useIsPhone';
import { cardKind, dash, expiryText, groupDigits, usd } from './format';

const mono = { fontFamily: '"SFMono-Regular", Menlo, Consolas, monospace', letterSpacing: 0.5 } as const;

function Reveal({ shown, onToggle, what }: { shown: boolean; onToggle(): void; what: string }) {
  return (
    <Button
      type="text"
      size="small"
      aria-label={`${shown ? 'Hide' : 'Show'} ${what}`}
      aria-pressed={shown}
      icon={shown ? <EyeInvisibleOutlined /> : <EyeOutlined />}
      onClick={onToggle}
    />
  );
}

/**
 * Customer path: the card's details. The full number and the CVC are hidden until the owner asks
 * to see them; the number can be copied (in full) either way.
 */
export function CardSecretsTable({ detail }: { detail: ApiCardDetail }) {
  const { card, details, billing } = detail;
  const phone = useIsPhone();
  const [showNumber, setShowNumber] = useState(false);
  const [showCvc, setShowCvc] = useState(false);
  const full = /^\d{12,19}$/.test(card.card_number.replace(/\s+/g, '')) ? card.card_number.replace(/\s+/g, '') : null;
  const number = (
    <Flex align="center" gap={2} wrap={false}>
      <Typography.Text
        style={{ ...mono, fontSize: 13, whiteSpace: 'nowrap', letterSpacing: phone ? 0 : 0.5 }}
        data-testid="card-number"
        copyable={full ? { text: full, tooltips: ['Copy card number', 'Copied'] } : false}
      >
        {showNumber && full ? groupDigits(full) : card.masked_number.replace(/\*/g, '•')}
      </Typography.Text>
      {full && <Reveal shown={showNumber} onToggle={() => setShowNumber((v) => !v)} what="card number" />}
    </Flex>
  );
  const cvc = details.card_cvv ? (
    <Flex align="center" gap={4}>
      <Typography.Text style={mono} data-testid="card-cvc">
        {showCvc ? details.card_cvv : '•••'}
      </Typography.Text>
      <Reveal shown={showCvc} onToggle={() => setShowCvc((v) => !v)} what="CVC" />
    </Flex>
  ) : (
    '-'
  );
  const rows = [
    { label: 'Card Name', value: dash(card.cardholder) },
    { label: 'Card Number', value: number },
    { label: 'Expiry Date', value: expiryText(details.card_exp_month, details.card_exp_year) },
    { label: 'CVC', value: cvc },
    { label: 'Card Type', value: cardKind(card.type, card.purpose) },
    {
      label: 'Billing Address',
      value: (
        <>
          <div>{dash(billing?.AdrLine1)}</div>
          {billing?.AdrLine2 ? <div>{billing.AdrLine2}</div> : null}
        </>
      ),
    },
    { label: 'City / State', value: `${dash(billing?.City)} / ${dash(billing?.State)}` },
    { label: 'Country', value: dash(billing?.Country) },
    { label: 'Zip Code', value: dash(billing?.ZipCode) },
  ];
  return (
    <Descriptions
      bordered
      size="small"
      column={1}
      styles={{
        label: { width: '32%', whiteSpace: 'nowrap', ...(phone ? { paddingInline: 10 } : {}) },
        content: { wordBreak: 'break-word', ...(phone ? { paddingInline: 10 } : {}) },
      }}
      items={rows.map((r) => ({ key: r.label, label: r.label, children: r.value }))}
    />
  );
}

const SUMS: Array<[string, keyof NonNullable<ApiCardDetail['additional_data']>]> = [
  ['Approved Sum', 'approved_sum'],
  ['Settled Sum', 'settled_sum'],
  ['Reversal Sum', 'reversal_sum'],
  ['Refund Sum', 'refund_sum'],
  ['Available Sum', 'available'],
  ['Held Sum', 'held'],
  ['Ledger Sum', 'ledger'],
  ['Debt', 'debt'],
  ['Spending Limit', 'spending_limit'],
  ['Additional Spending Limit', 'additional_spending_limit'],
  ['Total Issuance', 'total_issuance'],
  ['Total Topup', 'total_topup'],
  ['Total Withdrawal', 'total_withdrawal'],
  ['Total Maintenance', 'total_maintenance'],
  ['Total Fees', 'total_fees'],
];

/**
 * Admin path: the card's sums in USD ('N/A' when the server has none); a debt above zero in red. Two columns at most (antd
 * would use three from md up, wider than the card); one where the card is narrow beside the
 * picture (lg), so the table stays inside its card.
 */
export function CardSumsSummary({ detail }: { detail: ApiCardDetail }) {
  const data = detail.additional_data;
  return (
    <Descriptions
      bordered
      size="small"
      column={{ xs: 1, sm: 2, md: 2, lg: 1, xl: 2, xxl: 2 }}
      styles={{ content: { whiteSpace: 'nowrap' } }}
      items={SUMS.map(([label, key]) => {
        const v = data?.[key];
        const text = v == null || v === '' ? 'N/A' : usd(v);
        // A card in debt owes what clearings took beyond its balance: staff must not miss it.
        const owed = key === 'debt' && v != null && v !== '' && centsOf(v) > 0;
        return {
          key,
          label,
          children: owed ? (
            <Typography.Text type="danger" strong>
              {text}
            </Typography.Text>
          ) : (
            text
          ),
        };
      })}
    />
  );
}
