import { useCustom } from '@refinedev/core';
import { Alert, Card, Col, DatePicker, Flex, Form, Grid, Row, Segmented, Skeleton, Statistic, Typography } from 'antd';
import dayjs from 'dayjs';
import { Suspense, lazy } from 'react';
import { useSearchParams } from 'react-router';
import { messageOf } from '@shared/api/errors';
import { PageHeader } from '@shared/ui/PageHeader';
import { ChartsBoundary } from './ChartsBoundary';
import { amountText } from '@shared/ui/wallet/format';
import { rangePickerPresets } from '@shared/ui/wallet/DateRangeFilter';
import { DAY } from '../../format';
import { type Interval, type Statistics, type StatisticsSeries, TILE_GROUPS, type Tile, intervalFor } from './model';

/** The chart library (~650 KB) loads only when this screen shows its charts. */
const StatisticsCharts = lazy(() => import('./charts'));

const INTERVALS: Array<{ value: Interval; label: string }> = [
  { value: 'day', label: 'Day' },
  { value: 'week', label: 'Week' },
  { value: 'month', label: 'Month' },
];

function TileCard({ tile, stats, loading }: { tile: Tile; stats?: Statistics; loading: boolean }) {
  const raw = stats?.[tile.key];
  const value = raw === undefined ? '' : tile.unit ? amountText(String(raw)) : String(raw);
  return (
    <Card size="small" style={{ height: '100%' }} data-testid={`tile-${tile.key}`} role="group" aria-label={tile.title}>
      <Statistic
        title={tile.title}
        value={value}
        loading={loading}
        // currency first, as every amount in both apps is written
        prefix={tile.unit ? <span style={{ fontSize: 14 }}>{tile.unit}</span> : undefined}
        valueStyle={{ fontSize: 22, fontVariantNumeric: 'tabular-nums' }}
      />
    </Card>
  );
}

/**
 * /admin/reports/statistics (back-office §2.16): the figures for a range of UTC days (both
 * inclusive; balances as of its end), as tiles, and the activity over that range as charts.
 * The range lives in the address (?start_date&end_date), so a view can be shared.
 */
export default function StatisticsPage() {
  const [params, setParams] = useSearchParams();
  const start = params.get('start_date') || undefined;
  const end = params.get('end_date') || undefined;
  const interval = (params.get('interval') as Interval | null) ?? intervalFor(start, end);
  const phone = Grid.useBreakpoint().md === false;
  const range = { ...(start ? { start_date: start } : {}), ...(end ? { end_date: end } : {}) };

  const stats = useCustom<Statistics>({
    url: '/reports/view-statistics',
    method: 'get',
    config: { query: range },
    errorNotification: false,
  });
  const series = useCustom<StatisticsSeries>({
    url: '/reports/view-statistics-series',
    method: 'get',
    config: { query: { ...range, interval } },
    errorNotification: false,
  });
  const figures = stats.result.data as Statistics | undefined;
  const activity = series.result.data as StatisticsSeries | undefined;
  const error = stats.query.error ?? series.query.error;

  function setRange(from?: string, to?: string) {
    const next = new URLSearchParams(params);
    for (const [k, v] of [
      ['start_date', from],
      ['end_date', to],
    ] as const) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    next.delete('interval');
    setParams(next, { replace: true });
  }

  return (
    <>
      <PageHeader
        title="Statistics"
        subtitle="Balances, fees, top-ups, card activity and cards, for any range of days (UTC)."
      />
      <Card size="small" style={{ marginBottom: 16 }}>
        <Flex gap={16} wrap align="center" justify="space-between">
          <Form noValidate layout={phone ? 'vertical' : 'inline'} style={{ width: phone ? '100%' : undefined }}>
            <Form.Item label="Filter Dates" style={{ marginBottom: 0 }} htmlFor="statistics-range">
              <DatePicker.RangePicker
                id={{ start: 'statistics-range', end: 'statistics-range-end' }}
                allowEmpty={[true, true]}
                value={[start ? dayjs(start, DAY) : null, end ? dayjs(end, DAY) : null]}
                onChange={(v) => setRange(v?.[0]?.format(DAY), v?.[1]?.format(DAY))}
                placeholder={['Start date', 'End date']}
                presets={rangePickerPresets()}
                style={{ width: phone ? '100%' : 280 }}
              />
            </Form.Item>
          </Form>
          <Flex gap={8} align="center">
            <Typography.Text type="secondary">Charts per</Typography.Text>
            <Segmented<Interval>
              aria-label="Chart period"
              options={INTERVALS}
              value={interval}
              onChange={(v) => {
                const next = new URLSearchParams(params);
                next.set('interval', v);
                setParams(next, { replace: true });
              }}
            />
          </Flex>
        </Flex>
        <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }} data-testid="statistics-range">
          {start || end
            ? `From ${start ?? 'the beginning'} to ${end ?? 'today'} (UTC, both days included)`
            : 'All time'}
          ; balances as of the end of the range.
        </Typography.Text>
      </Card>

      {error && (
        <Alert
          type="error"
          showIcon
          message={messageOf(error, 'The statistics could not be loaded.')}
          style={{ marginBottom: 16 }}
        />
      )}

      {TILE_GROUPS.map((g) => (
        <section key={g.title} aria-label={g.title} style={{ marginBottom: 16 }}>
          <Typography.Title level={5} style={{ marginTop: 0 }}>
            {g.title}
          </Typography.Title>
          <Row gutter={[12, 12]}>
            {g.tiles.map((t) => (
              <Col key={t.key} xs={12} md={8} xl={6}>
                <TileCard tile={t} stats={figures} loading={stats.query.isLoading} />
              </Col>
            ))}
          </Row>
        </section>
      ))}

      <Typography.Title level={5}>Activity</Typography.Title>
      {figures && activity ? (
        <ChartsBoundary key={`${start}|${end}|${interval}`}>
          <Suspense fallback={<Skeleton active paragraph={{ rows: 8 }} />}>
            <StatisticsCharts stats={figures} series={activity} start={start} end={end} />
          </Suspense>
        </ChartsBoundary>
      ) : (
        <Skeleton active paragraph={{ rows: 8 }} />
      )}
    </>
  );
}
