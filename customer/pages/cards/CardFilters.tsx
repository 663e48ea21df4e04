import { Button, DatePicker, Flex, Form, Input, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { CardListFilters } from '@shared/ui/cards';
import { DetailsDrawer } from '@shared/ui/wallet';

interface FilterForm {
  start_date?: Dayjs | null;
  end_date?: Dayjs | null;
  for?: CardListFilters['for'];
  purpose?: CardListFilters['purpose'];
  type?: CardListFilters['type'];
  is_active?: CardListFilters['is_active'];
  search?: string;
}

const day = (d: Dayjs | null | undefined) => (d ? d.format('YYYY-MM-DD') : undefined);

/** How many filters are set (shown on the search icon). */
export const filterCount = (f: CardListFilters) =>
  Object.values(f).filter((v) => v !== undefined && v !== '').length - (f.start_date && f.end_date ? 1 : 0);

interface Props {
  open: boolean;
  onClose(): void;
  value: CardListFilters;
  onApply(f: CardListFilters): void;
}

/** The 'Search Cards' panel: every field narrows the list ('Filter Cards'), 'Reset' clears them. */
export function CardFilters(p: Props) {
  return (
    <DetailsDrawer title="Search Cards" open={p.open} onClose={p.onClose}>
      <FilterBody {...p} />
    </DetailsDrawer>
  );
}

/** Mounted with the panel, so it starts from the filters in force. */
function FilterBody({ onClose, value, onApply }: Props) {
  const [form] = Form.useForm<FilterForm>();
  const initial: FilterForm = {
    ...value,
    start_date: value.start_date ? dayjs(value.start_date) : null,
    end_date: value.end_date ? dayjs(value.end_date) : null,
  };

  function apply(v: FilterForm) {
    const search = v.search?.trim();
    onApply({
      start_date: day(v.start_date),
      end_date: day(v.end_date),
      for: v.for,
      purpose: v.purpose,
      type: v.type,
      is_active: v.is_active,
      search: search || undefined,
    });
    onClose();
  }

  const bothDates = ({ getFieldValue }: { getFieldValue(n: string): unknown }) => ({
    validator: () => {
      const s = getFieldValue('start_date');
      const e = getFieldValue('end_date');
      if (!!s !== !!e) return Promise.reject(new Error('Choose both a start date and an end date'));
      if (s && e && (e as Dayjs).isBefore(s as Dayjs, 'day'))
        return Promise.reject(new Error('End date must be on or after the start date'));
      return Promise.resolve();
    },
  });

  return (
    <Form noValidate form={form} layout="vertical" requiredMark={false} initialValues={initial} onFinish={apply}>
      <Flex gap={12}>
        <Form.Item
          name="start_date"
          label="Start Date"
          style={{ flex: 1 }}
          dependencies={['end_date']}
          rules={[bothDates]}
        >
          <DatePicker style={{ width: '100%' }} format="YYYY-MM-DD" placeholder="YYYY-MM-DD" />
        </Form.Item>
        <Form.Item
          name="end_date"
          label="End Date"
          style={{ flex: 1 }}
          dependencies={['start_date']}
          rules={[bothDates]}
        >
          <DatePicker style={{ width: '100%' }} format="YYYY-MM-DD" placeholder="YYYY-MM-DD" />
        </Form.Item>
      </Flex>
      <Form.Item name="for" label="For">
        <Select
          allowClear
          placeholder="Any owner"
          options={[
            { value: 'individual', label: 'Individual' },
            { value: 'company', label: 'Company' },
          ]}
        />
      </Form.Item>
      <Form.Item name="purpose" label="Purpose">
        <Select
          allowClear
          placeholder="Any purpose"
          options={[
            { value: 'media', label: 'Visa' },
            { value: 'general', label: 'Mastercard' },
            { value: 'tokencard', label: 'Tokenised Cards' },
          ]}
        />
      </Form.Item>
      <Form.Item name="type" label="Type">
        <Select
          allowClear
          placeholder="Any type"
          options={[
            { value: 'basic', label: 'Basic' },
            { value: 'premium', label: 'Premium' },
          ]}
        />
      </Form.Item>
      <Form.Item name="is_active" label="Status">
        <Select
          allowClear
          placeholder="Any status"
          options={[
            { value: 'true', label: 'Active' },
            { value: 'false', label: 'Deactivated' },
          ]}
        />
      </Form.Item>
      <Form.Item name="search" label="Search">
        <Input placeholder="Name, nickname or last 4 digits" allowClear />
      </Form.Item>
      <Flex gap={8}>
        <Button
          block
          onClick={() => {
            onApply({});
            onClose();
          }}
        >
          Reset
        </Button>
        <Button type="primary" htmlType="submit" block>
          Filter Cards
        </Button>
      </Flex>
    </Form>
  );
}
