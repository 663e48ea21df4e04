import { Flex, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { ReactNode } from 'react';
import { type ApiCard, brandOf } from '@shared/contract';
import { StatusTag, cardTypeLabel, controlWords, dash, usd } from '@shared/ui/cards';
import { dateTime } from '../../format';

const mono = {
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
  fontSize: 12,
  whiteSpace: 'nowrap',
} as const;
const nowrap = { whiteSpace: 'nowrap' } as const;

/** Cardholder (nickname), and whose card it is. */
function Holder({ card }: { card: ApiCard }) {
  return (
    <Flex vertical>
      <Typography.Text strong>
        {card.cardholder} <Typography.Text type="secondary">({card.nickname})</Typography.Text>
      </Typography.Text>
      {card.owner_name && card.owner_name !== card.cardholder && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {card.owner_type ?? 'Owner'}: {card.owner_name}
        </Typography.Text>
      )}
    </Flex>
  );
}

const hasFlagInfo = (c: ApiCard) => !!(c.flag_reason || c.flagged_at || c.suspend_at || c.unsuspend_at);

/** Flag information: reason, flagged time, suspend time, unsuspend time (only what is set; the badges are in State). */
function FlagInfo({ card }: { card: ApiCard }) {
  const facts: Array<[string, string | null]> = [
    ['Reason', card.flag_reason],
    ['Flagged', card.flagged_at ? dateTime(card.flagged_at) : null],
    ['Suspended', card.suspend_at ? dateTime(card.suspend_at) : null],
    ['Unsuspended', card.unsuspend_at ? dateTime(card.unsuspend_at) : null],
  ];
  const shown = facts.filter(([, v]) => v);
  if (!shown.length) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Flex vertical gap={2} style={{ fontSize: 12 }} data-testid="flag-info">
      {shown.map(([k, v]) => (
        <span key={k}>
          <Typography.Text type="secondary">{k}:</Typography.Text> {v}
        </span>
      ))}
    </Flex>
  );
}

const spendingLimitText = (c: ApiCard) =>
  c.spending_limit == null ? '—' : `${usd(c.spending_limit)} ${controlWords(c.spending_control)}`;

/** Words wrap between each other, never inside one ("Masterca rd"): the table's cells would otherwise break them. */
const Word = ({ text }: { text: string }) => (
  <span style={{ overflowWrap: 'normal', wordBreak: 'keep-all' }}>{text}</span>
);

/** A date over its time: two short lines instead of one wide one. */
const Stamp = ({ iso }: { iso: string }) => {
  const [date, time] = dateTime(iso).split(', ');
  return (
    <Flex vertical>
      <span style={nowrap}>{date}</span>
      {time && <Typography.Text type="secondary">{time}</Typography.Text>}
    </Flex>
  );
};

/**
 * The columns of back-office §2.8 (the row menu is added by the list), sized so that every one,
 * Flag Information and Created included, fits a 1440 px screen beside the menu without scrolling.
 */
export const cardColumns: TableColumnsType<ApiCard> = [
  { title: 'Cardholder', dataIndex: 'cardholder', width: 168, render: (_, c) => <Holder card={c} /> },
  { title: 'Purpose', dataIndex: 'purpose', width: 112, render: (v: string) => <Word text={brandOf(v)} /> },
  { title: 'Type', dataIndex: 'type', width: 96, render: (v: string) => <Word text={cardTypeLabel(v)} /> },
  {
    title: 'Card Number',
    dataIndex: 'masked_number',
    width: 112,
    render: (v: string) => <span style={{ ...mono, whiteSpace: 'normal' }}>{dash(v)}</span>,
  },
  { title: 'Balance', dataIndex: 'balance', width: 104, render: (v: string) => <span style={nowrap}>{usd(v)}</span> },
  {
    title: 'Spending Limit',
    dataIndex: 'spending_limit',
    width: 116,
    // the amount stays whole ("USD 1,000.00"); the period may wrap under it
    render: (_, c) =>
      c.spending_limit == null ? (
        '—'
      ) : (
        <>
          <span style={nowrap}>{usd(c.spending_limit)}</span> {controlWords(c.spending_control)}
        </>
      ),
  },
  // the shared badge: a flagged card shows Flagged beside a grey Active, never a green one
  { title: 'State', dataIndex: 'state', width: 116, render: (_, c) => <StatusTag card={c} /> },
  { title: 'Flag Information', key: 'flag', width: 158, render: (_, c) => <FlagInfo card={c} /> },
  { title: 'Created', dataIndex: 'created_at', width: 108, render: (v: string) => <Stamp iso={v} /> },
];

/** The compact row phones show. */
export function CardItem({ card, menu }: { card: ApiCard; menu: ReactNode }) {
  return (
    <Flex vertical gap={4}>
      <Flex justify="space-between" align="flex-start" gap={8}>
        <div style={{ minWidth: 0 }}>
          <Holder card={card} />
        </div>
        <Flex gap={6} align="center">
          <StatusTag card={card} />
          {menu}
        </Flex>
      </Flex>
      <Flex justify="space-between" gap={8} wrap>
        <span style={mono}>{card.masked_number}</span>
        <Typography.Text strong style={nowrap}>
          {usd(card.balance)}
        </Typography.Text>
      </Flex>
      <Typography.Text type="secondary">
        {brandOf(card.purpose)} · {cardTypeLabel(card.type)}
        {card.spending_limit != null ? ` · Limit ${spendingLimitText(card)}` : ''}
      </Typography.Text>
      {hasFlagInfo(card) && <FlagInfo card={card} />}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        Created {dateTime(card.created_at)}
      </Typography.Text>
    </Flex>
  );
}
