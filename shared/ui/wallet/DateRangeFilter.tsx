import { CalendarOutlined } from '@ant-design/icons';
import { Button, DatePicker, Flex, Popover, Segmented, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';

export interface DayRange {
  from: Dayjs | null;
  to: Dayjs | null;
}

export type RangePreset = '7d' | '30d' | 'this-month' | 'last-month' | 'custom';

const PRESETS: Array<{ value: RangePreset; label: string }> = [
  { value: '7d', label: '7 days' },
  { value: '30d', label: '30 days' },
  { value: 'this-month', label: 'This month' },
  { value: 'last-month', label: 'Last month' },
  { value: 'custom', label: 'Custom' },
];

/** The days a preset covers, both inclusive, ending today ("30 days" is today and the 29 before it). */
export function presetRange(preset: Exclude<RangePreset, 'custom'>, today: Dayjs = dayjs()): DayRange {
  const end = today.startOf('day');
  switch (preset) {
    case '7d':
      return { from: end.subtract(6, 'day'), to: end };
    case '30d':
      return { from: end.subtract(29, 'day'), to: end };
    case 'this-month':
      return { from: end.startOf('month'), to: end };
    case 'last-month': {
      const last = end.subtract(1, 'month');
      return { from: last.startOf('month'), to: last.endOf('month').startOf('day') };
    }
  }
}

/** The presets as antd's RangePicker takes them (its own pickers are the custom range). */
export const rangePickerPresets = () =>
  PRESETS.filter((p) => p.value !== 'custom').map((p) => {
    const r = presetRange(p.value as Exclude<RangePreset, 'custom'>);
    return { label: p.label, value: [r.from!, r.to!] as [Dayjs, Dayjs] };
  });

/** Reports open on the last 30 days (issue 31), so they show rows at once. */
export const DEFAULT_PRESET = '30d' as const;

const label = (r: DayRange) =>
  r.from && r.to ? `${r.from.format('D MMM YYYY')} – ${r.to.format('D MMM YYYY')}` : 'Choose dates';

/**
 * The period of a report: presets (7 days, 30 days, This month, Last month) that apply at once, and Custom, which
 * opens 'Date from' and 'Date to' pickers in a popover; the button beside them shows the days chosen and opens the
 * pickers too. `onApply` runs with the range to search: on a preset, and on Done with both days picked.
 */
export function DateRangeFilter({
  value,
  onChange,
  preset,
  onApply,
  open,
  onOpenChange,
  error,
  block,
}: {
  value: DayRange;
  onChange(v: DayRange, preset: RangePreset): void;
  preset: RangePreset;
  onApply(v: DayRange): void;
  open: boolean;
  onOpenChange(open: boolean): void;
  /** shown inside the popover while it is open (it would cover the page's own message on phones) */
  error?: string;
  block?: boolean;
}) {
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  const content = (
    <div ref={setBox} style={{ width: 260, position: 'relative' }}>
      <Flex vertical gap={12}>
        <label>
          <Typography.Text>Date from</Typography.Text>
          <DatePicker
            aria-label="Date from"
            style={{ width: '100%', marginTop: 4 }}
            format="YYYY-MM-DD"
            placeholder="YYYY-MM-DD"
            value={value.from}
            // a start after the end moves the end with it (a preset's end no longer blocks an older one)
            onChange={(d) => onChange({ from: d, to: d && value.to?.isBefore(d, 'day') ? d : value.to }, 'custom')}
            getPopupContainer={() => box ?? document.body}
          />
        </label>
        <label>
          <Typography.Text>Date to</Typography.Text>
          <DatePicker
            aria-label="Date to"
            style={{ width: '100%', marginTop: 4 }}
            format="YYYY-MM-DD"
            placeholder="YYYY-MM-DD"
            value={value.to}
            onChange={(d) => onChange({ from: d && value.from?.isAfter(d, 'day') ? d : value.from, to: d }, 'custom')}
            getPopupContainer={() => box ?? document.body}
          />
        </label>
        {error && (
          <Typography.Text type="danger" role="alert">
            {error}
          </Typography.Text>
        )}
        <Button
          onClick={() => {
            onOpenChange(false);
            if (value.from && value.to) onApply(value);
          }}
        >
          Done
        </Button>
      </Flex>
    </div>
  );
  return (
    <Flex gap={8} wrap align="center" style={block ? { flex: '1 1 100%' } : undefined}>
      <Segmented<RangePreset>
        aria-label="Period"
        className="cw-range-presets"
        block={block}
        style={block ? { flex: '1 1 100%' } : undefined}
        value={preset}
        options={PRESETS}
        onChange={(p) => {
          if (p === 'custom') {
            onChange(value, 'custom');
            onOpenChange(true);
            return;
          }
          const range = presetRange(p);
          onChange(range, p);
          onOpenChange(false);
          onApply(range);
        }}
      />
      <Popover
        content={content}
        trigger="click"
        open={open}
        onOpenChange={onOpenChange}
        placement="bottomLeft"
        destroyOnHidden={false}
      >
        <Button
          icon={<CalendarOutlined />}
          aria-label={`Date range: ${label(value)}`}
          block={block}
          style={block ? { flex: '1 1 100%' } : undefined}
        >
          {label(value)}
        </Button>
      </Popover>
    </Flex>
  );
}
