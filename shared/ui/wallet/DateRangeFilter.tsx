import { CalendarOutlined } from '@ant-design/icons';
import { Button, DatePicker, Flex, Popover, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';

export interface DayRange {
  from: Dayjs | null;
  to: Dayjs | null;
}

const label = (r: DayRange) =>
  r.from && r.to ? `${r.from.format('D MMM YYYY')} – ${r.to.format('D MMM YYYY')}` : 'Date range';

/** A button that opens 'Date from' and 'Date to' pickers; the pickers open inside the popover. */
export function DateRangeFilter({
  value,
  onChange,
  open,
  onOpenChange,
  error,
  block,
}: {
  value: DayRange;
  onChange(v: DayRange): void;
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
            onChange={(d) => onChange({ ...value, from: d })}
            getPopupContainer={() => box ?? document.body}
            disabledDate={(d) => (value.to ? d.isAfter(value.to, 'day') : false)}
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
            onChange={(d) => onChange({ ...value, to: d })}
            getPopupContainer={() => box ?? document.body}
            disabledDate={(d) => (value.from ? d.isBefore(value.from, 'day') : false)}
          />
        </label>
        {error && (
          <Typography.Text type="danger" role="alert">
            {error}
          </Typography.Text>
        )}
        <Button onClick={() => onOpenChange(false)}>Done</Button>
      </Flex>
    </div>
  );
  return (
    <Popover
      content={content}
      trigger="click"
      open={open}
      onOpenChange={onOpenChange}
      placement="bottomLeft"
      destroyOnHidden={false}
    >
      <Button icon={<CalendarOutlined />} block={block} style={block ? { flex: '1 1 100%' } : undefined}>
        {label(value)}
      </Button>
    </Popover>
  );
}
