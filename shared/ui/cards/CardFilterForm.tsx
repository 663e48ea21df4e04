import { Button, DatePicker, Flex, Form, type FormProps, Input, Select } from 'antd';
import type { RuleRender } from 'antd/es/form';
import type { ReactNode } from 'react';
import { CARD_PURPOSES, CARD_TYPES, brandOf } from '../../contract';
import { dayPickerProps } from '../forms';
import { DetailsDrawer } from '../wallet/DetailsDrawer';
import { cardTypeLabel } from './format';
import type { CardListFilters } from './hooks';

/** The card filters, with the back-office's 'Created By' (a creator's user id). */
export type CardFilterValues = CardListFilters & { created_by?: string };

/** Each app's words: the customer's spec says 'Filter Cards', the back-office's an 'active flag'. */
const WORDS = {
  customer: {
    active: { label: 'Status', placeholder: 'Any status', no: 'Deactivated' },
    search: 'Name, nickname or last 4 digits',
    submit: 'Filter Cards',
    bothDates: true,
  },
  staff: {
    active: { label: 'Active', placeholder: 'Any', no: 'Not active' },
    search: 'Cardholder, nickname or last 4 digits',
    submit: 'Search',
    bothDates: false,
  },
} as const;

const day = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** Start and end dates in order; the customer's panel also wants both or neither. */
const datesRule =
  (bothDates: boolean): RuleRender =>
  ({ getFieldValue }) => ({
    validator: async () => {
      const s = day(getFieldValue('start_date'));
      const e = day(getFieldValue('end_date'));
      if (bothDates && !!s !== !!e) throw new Error('Choose both a start date and an end date');
      if (s && e && e < s) throw new Error('End date must be on or after the start date');
    },
  });

interface Props {
  variant: keyof typeof WORDS;
  open: boolean;
  onClose(): void;
  /** the form (the customer's own, or the back-office list's Refine search form) and its initial values */
  formProps: FormProps<CardFilterValues>;
  onFinish(v: CardFilterValues): void;
  onReset(): void;
  /** more fields after Search (the back-office's 'Created By') */
  children?: ReactNode;
}

/** The 'Search Cards' panel of both apps: every field narrows the card list, 'Reset' clears them. */
export function CardFilterDrawer({ variant, open, onClose, formProps, onFinish, onReset, children }: Props) {
  const words = WORDS[variant];
  const selects = [
    {
      name: 'for',
      label: 'For',
      placeholder: 'Any owner',
      options: [
        { value: 'individual', label: 'Individual' },
        { value: 'company', label: 'Company' },
      ],
    },
    {
      name: 'purpose',
      label: 'Purpose',
      placeholder: 'Any purpose',
      options: CARD_PURPOSES.map((p) => ({ value: p, label: brandOf(p) })),
    },
    {
      name: 'type',
      label: 'Type',
      placeholder: 'Any type',
      options: CARD_TYPES.map((t) => ({ value: t, label: cardTypeLabel(t) })),
    },
    {
      name: 'is_active',
      label: words.active.label,
      placeholder: words.active.placeholder,
      options: [
        { value: 'true', label: 'Active' },
        { value: 'false', label: words.active.no },
      ],
    },
  ];
  const dates = datesRule(words.bothDates);
  return (
    <DetailsDrawer title="Search Cards" open={open} onClose={onClose}>
      <Form<CardFilterValues>
        noValidate
        {...formProps}
        layout="vertical"
        requiredMark={false}
        onFinish={(v) => {
          onFinish(v);
          onClose();
        }}
      >
        <Flex gap={12}>
          <Form.Item
            name="start_date"
            label="Start Date"
            style={{ flex: 1 }}
            dependencies={['end_date']}
            rules={words.bothDates ? [dates] : []}
            {...dayPickerProps}
          >
            <DatePicker style={{ width: '100%' }} format="YYYY-MM-DD" placeholder="YYYY-MM-DD" />
          </Form.Item>
          <Form.Item
            name="end_date"
            label="End Date"
            style={{ flex: 1 }}
            dependencies={['start_date']}
            rules={[dates]}
            {...dayPickerProps}
          >
            <DatePicker style={{ width: '100%' }} format="YYYY-MM-DD" placeholder="YYYY-MM-DD" />
          </Form.Item>
        </Flex>
        {selects.map((s) => (
          <Form.Item key={s.name} name={s.name} label={s.label}>
            <Select allowClear placeholder={s.placeholder} options={s.options} />
          </Form.Item>
        ))}
        <Form.Item name="search" label="Search" normalize={(v?: string) => v || undefined}>
          <Input placeholder={words.search} allowClear />
        </Form.Item>
        {children}
        <Flex gap={8}>
          <Button block onClick={onReset}>
            Reset
          </Button>
          <Button type="primary" htmlType="submit" block>
            {words.submit}
          </Button>
        </Flex>
      </Form>
    </DetailsDrawer>
  );
}
