import { Column, Pie } from '@ant-design/charts';
import { Card, Col, Empty, Row } from 'antd';
import type { ReactNode } from 'react';
import {
  FEE_KIND_LABELS,
  type Interval,
  type Statistics,
  type StatisticsSeries,
  TX_STATUS_LABELS,
  periodLabel,
  periodsBetween,
} from './model';

/**
 * The Statistics screen's charts. This module is loaded lazily (React.lazy), so the chart
 * library stays out of the back-office's main chunk. Amounts arrive as decimal strings and are
 * turned into numbers only to be drawn.
 */

interface Props {
  stats: Statistics;
  series: StatisticsSeries;
  /** the chosen range (UTC days), if any: the time axis spans it */
  start?: string;
  end?: string;
}

type Point = { period: string; group: string; value: number };

/** Series rows onto a continuous time axis; a missing period is drawn as 0. */
function onAxis<T extends { period: string }>(
  rows: T[],
  interval: Interval,
  group: (r: T) => string,
  value: (r: T) => number,
  start?: string,
  end?: string,
): Point[] {
  const seen = rows.map((r) => r.period).sort();
  const periods = periodsBetween(start ?? seen[0], end ?? seen[seen.length - 1], interval);
  const groups = [...new Set(rows.map(group))];
  const sums = new Map<string, number>();
  for (const r of rows) {
    const k = `${r.period}|${group(r)}`;
    sums.set(k, (sums.get(k) ?? 0) + value(r));
  }
  return periods.flatMap((p) =>
    groups.map((g) => ({ period: periodLabel(p, interval), group: g, value: sums.get(`${p}|${g}`) ?? 0 })),
  );
}

function ChartCard({
  title,
  label,
  empty,
  children,
}: {
  title: string;
  label: string;
  empty: boolean;
  children: ReactNode;
}) {
  return (
    <Card title={title} size="small" style={{ height: '100%' }}>
      <figure aria-label={label} data-testid="statistics-chart" style={{ margin: 0, minHeight: 260 }}>
        {empty ? (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description="No activity in this range"
            style={{ paddingTop: 60 }}
          />
        ) : (
          children
        )}
      </figure>
    </Card>
  );
}

const money = (v: number) => v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

function StackedColumns({ data, unit }: { data: Point[]; unit?: string }) {
  return (
    <Column
      data={data}
      xField="period"
      yField="value"
      colorField="group"
      stack
      height={260}
      autoFit
      legend={{ color: { position: 'bottom', layout: { justifyContent: 'center' } } }}
      axis={{
        y: { labelFormatter: (v: number) => (unit ? money(v) : String(v)) },
        x: { labelAutoRotate: true, labelAutoHide: true },
      }}
      tooltip={{ items: [{ channel: 'y', valueFormatter: (v: number) => (unit ? `${unit} ${money(v)}` : String(v)) }] }}
    />
  );
}

function Donut({ data }: { data: Array<{ name: string; value: number }> }) {
  const shown = data.filter((d) => d.value > 0);
  if (!shown.length)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No cards" style={{ paddingTop: 40 }} />;
  return (
    <Pie
      data={shown}
      angleField="value"
      colorField="name"
      innerRadius={0.6}
      height={220}
      autoFit
      label={{ text: 'value', style: { fontWeight: 600 } }}
      legend={{ color: { position: 'bottom', layout: { justifyContent: 'center' } } }}
    />
  );
}

export default function StatisticsCharts({ stats, series, start, end }: Props) {
  const { interval } = series;
  const topups = onAxis(
    series.topups,
    interval,
    (t) => t.method,
    (t) => Number(t.amount),
    start,
    end,
  );
  const payments = onAxis(
    series.card_transactions,
    interval,
    (t) => TX_STATUS_LABELS[t.status] ?? t.status,
    (t) => t.count,
    start,
    end,
  );
  const income = onAxis(
    series.fees,
    interval,
    (f) => FEE_KIND_LABELS[f.kind] ?? f.kind,
    (f) => Number(f.amount),
    start,
    end,
  );
  const per = { day: 'per day', week: 'per week', month: 'per month' }[interval];
  const tokenised = stats.total_cards - stats.total_general_cards - stats.total_media_cards;

  return (
    <Row gutter={[16, 16]} style={{ marginTop: 8 }}>
      <Col xs={24} xl={12}>
        <ChartCard title={`Approved top-ups (USDT ${per})`} label="Top-ups over time" empty={!series.topups.length}>
          <StackedColumns data={topups} unit="USDT" />
        </ChartCard>
      </Col>
      <Col xs={24} xl={12}>
        <ChartCard
          title={`Card transactions (count ${per})`}
          label="Card transactions over time"
          empty={!series.card_transactions.length}
        >
          <StackedColumns data={payments} />
        </ChartCard>
      </Col>
      <Col xs={24}>
        <ChartCard
          title="Cards by type, brand and state"
          label="Cards by type, brand and state"
          empty={stats.total_cards === 0}
        >
          <Row gutter={[8, 8]}>
            <Col xs={24} md={8}>
              <Donut
                data={[
                  { name: 'Basic', value: stats.total_basic_cards },
                  { name: 'Premium', value: stats.total_premium_cards },
                ]}
              />
            </Col>
            <Col xs={24} md={8}>
              <Donut
                data={[
                  { name: 'Mastercard', value: stats.total_general_cards },
                  { name: 'Visa', value: stats.total_media_cards },
                  { name: 'Tokenised', value: tokenised },
                ]}
              />
            </Col>
            <Col xs={24} md={8}>
              <Donut
                data={[
                  { name: 'Active', value: stats.total_activated_cards },
                  { name: 'Deactivated', value: stats.total_deactivated_cards },
                  { name: 'Deleted', value: stats.total_deleted_cards },
                ]}
              />
            </Col>
          </Row>
        </ChartCard>
      </Col>
      <Col xs={24}>
        <ChartCard
          title={`Fee and maintenance income (USD ${per})`}
          label="Fee and maintenance income over time"
          empty={!series.fees.length}
        >
          <StackedColumns data={income} unit="USD" />
        </ChartCard>
      </Col>
    </Row>
  );
}
