import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Flex,
  Form,
  Input,
  InputNumber,
  Radio,
  Row,
  Select,
  Skeleton,
  Typography,
} from 'antd';
import { useState } from 'react';
import { apiData } from '../../api/client';
import {
  APPROVAL_INTERVALS,
  type ApiCard,
  type ApiCardControls,
  type ApprovalInterval,
  MAX_APPROVALS_COUNT,
  can,
} from '../../contract';
import { formatMoney, parseMoney } from '../../money';
import { clearErrorsOnChange, sayFailure } from '../forms';
import { useSession } from '../useSession';
import { useSubmit } from '../useSubmit';
import { DetailsDrawer } from '../wallet/DetailsDrawer';
import { useIsPhone } from '../wallet/useIsPhone';
import { INTERVAL_LABELS, controlsSummary } from './controlTexts';
import { CountrySelect, MerchantCategorySelect } from './ControlSelects';

type Mode = 'any' | 'allow' | 'block';
interface ControlsForm {
  category_mode: Mode;
  categories: string[];
  country_mode: Mode;
  countries: string[];
  per_transaction_limit?: string;
  max_count?: number | null;
  max_interval: ApprovalInterval;
}

const controlsKey = (cardId: string) => ['cards', 'controls', cardId] as const;

const modeOf = (allowed: string[], blocked: string[]): Mode =>
  allowed.length ? 'allow' : blocked.length ? 'block' : 'any';

function toForm(c: ApiCardControls): ControlsForm {
  const categoryMode = modeOf(c.allowed_categories, c.blocked_categories);
  const countryMode = modeOf(c.allowed_countries, c.blocked_countries);
  return {
    category_mode: categoryMode,
    categories: categoryMode === 'allow' ? c.allowed_categories : c.blocked_categories,
    country_mode: countryMode,
    countries: countryMode === 'allow' ? c.allowed_countries : c.blocked_countries,
    per_transaction_limit: c.per_transaction_limit ?? '',
    max_count: c.max_approvals?.count ?? null,
    max_interval: c.max_approvals?.interval ?? 'daily',
  };
}

function toBody(v: ControlsForm) {
  const pick = (mode: Mode, list: string[], want: Mode) => (mode === want ? list : []);
  const limit = v.per_transaction_limit?.trim();
  return {
    allowed_categories: pick(v.category_mode, v.categories ?? [], 'allow'),
    blocked_categories: pick(v.category_mode, v.categories ?? [], 'block'),
    allowed_countries: pick(v.country_mode, v.countries ?? [], 'allow'),
    blocked_countries: pick(v.country_mode, v.countries ?? [], 'block'),
    per_transaction_limit: limit ? limit : null,
    max_approvals: v.max_count ? { count: v.max_count, interval: v.max_interval } : null,
  };
}

// The server's field names, on the form's fields.
const RENAME = {
  allowed_categories: 'categories',
  blocked_categories: 'categories',
  allowed_countries: 'countries',
  blocked_countries: 'countries',
  max_approvals: 'max_count',
  'max_approvals.count': 'max_count',
  'max_approvals.interval': 'max_interval',
};

const optionalMoney = {
  validator: (_: unknown, v: unknown) => {
    if (v == null || String(v).trim() === '') return Promise.resolve();
    const r = parseMoney(v);
    return r.ok ? Promise.resolve() : Promise.reject(new Error(r.error));
  },
};

const MODES: Array<{ value: Mode; label: string }> = [
  { value: 'any', label: 'Any' },
  { value: 'allow', label: 'Only these' },
  { value: 'block', label: 'Block these' },
];

function ControlsDrawer({
  open,
  onClose,
  card,
  controls,
}: {
  open: boolean;
  onClose(): void;
  card: ApiCard;
  controls: ApiCardControls;
}) {
  const [form] = Form.useForm<ControlsForm>();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const { busy, submit } = useSubmit();
  const categoryMode = Form.useWatch('category_mode', form);
  const countryMode = Form.useWatch('country_mode', form);

  async function save(v: ControlsForm) {
    const body = toBody(v);
    if (body.per_transaction_limit) {
      const r = parseMoney(body.per_transaction_limit);
      if (r.ok) body.per_transaction_limit = formatMoney(r.cents);
    }
    const r = await submit((key) =>
      apiData<ApiCardControls>('PUT', `/cards/${card.id}/controls`, { body, idempotencyKey: key, silent: true }),
    );
    if (!r.ok) {
      sayFailure(
        form,
        r.error,
        (text) => message.error(text, 4),
        'The controls were not saved. Please try again.',
        RENAME,
      );
      return;
    }
    qc.setQueryData(controlsKey(card.id), r.data);
    message.success('Card controls saved.', 2);
    onClose();
  }

  return (
    <DetailsDrawer title="Card Controls" open={open} onClose={onClose}>
      <Typography.Paragraph type="secondary">
        Payments that break a control are declined, and the card's transactions say why.
      </Typography.Paragraph>
      <Form
        noValidate
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={toForm(controls)}
        onFinish={save}
        onValuesChange={(changed: Partial<ControlsForm>) => {
          clearErrorsOnChange(form)(changed);
          // a mode's list is checked against the mode: a new mode clears what was said of the old
          if ('category_mode' in changed) form.setFields([{ name: 'categories', errors: [] }]);
          if ('country_mode' in changed) form.setFields([{ name: 'countries', errors: [] }]);
        }}
        aria-label="Card Controls"
      >
        <Form.Item name="category_mode" label="Merchant categories">
          <Radio.Group options={MODES} optionType="button" />
        </Form.Item>
        <Form.Item
          name="categories"
          label={categoryMode === 'allow' ? 'Allowed categories' : 'Blocked categories'}
          hidden={categoryMode === 'any'}
          rules={[
            {
              validator: (_: unknown, v?: string[]) =>
                form.getFieldValue('category_mode') !== 'any' && !v?.length
                  ? Promise.reject(new Error('Choose at least one category'))
                  : Promise.resolve(),
            },
          ]}
        >
          <MerchantCategorySelect />
        </Form.Item>
        <Form.Item name="country_mode" label="Merchant countries">
          <Radio.Group options={MODES} optionType="button" />
        </Form.Item>
        <Form.Item
          name="countries"
          label={countryMode === 'allow' ? 'Allowed countries' : 'Blocked countries'}
          hidden={countryMode === 'any'}
          rules={[
            {
              validator: (_: unknown, v?: string[]) =>
                form.getFieldValue('country_mode') !== 'any' && !v?.length
                  ? Promise.reject(new Error('Choose at least one country'))
                  : Promise.resolve(),
            },
          ]}
        >
          <CountrySelect />
        </Form.Item>
        <Form.Item
          name="per_transaction_limit"
          label="Per-payment limit (USD)"
          rules={[optionalMoney]}
          extra="Leave empty for no limit."
        >
          <Input inputMode="decimal" addonBefore="USD" placeholder="No limit" autoComplete="off" />
        </Form.Item>
        <Row gutter={12}>
          <Col xs={12}>
            <Form.Item name="max_count" label="Approved payments">
              <InputNumber
                min={1}
                max={MAX_APPROVALS_COUNT}
                precision={0}
                style={{ width: '100%' }}
                placeholder="No limit"
              />
            </Form.Item>
          </Col>
          <Col xs={12}>
            <Form.Item name="max_interval" label="Per">
              <Select
                options={APPROVAL_INTERVALS.map((i) => ({ value: i, label: INTERVAL_LABELS[i] }))}
                aria-label="Per"
              />
            </Form.Item>
          </Col>
        </Row>
        <Typography.Paragraph type="secondary" style={{ marginTop: -12 }}>
          At most this many approved payments in each period. Leave empty for no limit.
        </Typography.Paragraph>
        <Button type="primary" htmlType="submit" block loading={busy}>
          Save Controls
        </Button>
      </Form>
    </DetailsDrawer>
  );
}

/**
 * A card's controls in its detail (issue 32): what they are, and for the card's owner, a company's
 * admin or staff, a drawer to set them. A company's users see them without the button.
 */
export function CardControlsSection({ card, staff }: { card: ApiCard; staff: boolean }) {
  const phone = useIsPhone();
  const session = useSession();
  const [open, setOpen] = useState(false);
  const controls = useQuery({
    queryKey: controlsKey(card.id),
    queryFn: () => apiData<ApiCardControls>('GET', `/cards/${card.id}/controls`, { silent: true }),
  });
  const canEdit =
    !card.is_deleted && (staff ? can(session?.user.role, 'cards.manage') : session?.user.role !== 'Company-User');
  return (
    <Card
      title="Controls"
      style={{ marginTop: 24 }}
      styles={{ body: { padding: phone ? 12 : 24 }, header: phone ? { paddingInline: 12 } : undefined }}
      extra={
        canEdit && controls.data ? (
          <Button size="small" onClick={() => setOpen(true)}>
            Set Controls
          </Button>
        ) : null
      }
      data-testid="card-controls"
    >
      {controls.isLoading ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : controls.error || !controls.data ? (
        <Alert type="error" showIcon message="Could not load the card's controls." />
      ) : (
        <Flex vertical gap={8}>
          {controlsSummary(controls.data).map((row) => (
            <Flex key={row.label} gap={phone ? 0 : 12} vertical={phone}>
              <Typography.Text type="secondary" style={{ minWidth: 170 }}>
                {row.label}
              </Typography.Text>
              <Typography.Text>{row.value}</Typography.Text>
            </Flex>
          ))}
        </Flex>
      )}
      {controls.data && open && (
        <ControlsDrawer open={open} onClose={() => setOpen(false)} card={card} controls={controls.data} />
      )}
    </Card>
  );
}
