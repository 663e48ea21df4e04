import { useCustom } from '@refinedev/core';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Form,
  Input,
  InputNumber,
  Row,
  Segmented,
  Select,
  Skeleton,
  Switch,
} from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { apiData } from '@shared/api/client';
import {
  AMOUNT_SIGNS,
  type ApiStatementSource,
  DATE_FORMATS,
  STATEMENT_SOURCES,
  STATEMENT_SOURCE_NAMES,
  type StatementSource,
} from '@shared/contract';
import { clearErrorsOnChange, sayFailure } from '@shared/ui/forms';
import { PageHeader } from '@shared/ui/PageHeader';
import { useSubmit } from '@shared/ui/useSubmit';
import { useCan } from '../../components/Allowed';

type Values = Omit<ApiStatementSource, 'source' | 'name' | 'updated_at'>;

const SIGN_LABELS: Record<(typeof AMOUNT_SIGNS)[number], string> = {
  signed: 'Signed: positive is money in to us',
  inverted: 'Signed from their side: positive is money to them',
  absolute: 'No sign: compare amounts only',
  direction: 'A direction column says which way',
};
const DATE_LABELS: Record<(typeof DATE_FORMATS)[number], string> = {
  iso: 'ISO 8601 (2026-06-30 or 2026-06-30T12:00:00Z)',
  unix_ms: 'Unix time in milliseconds',
  unix_s: 'Unix time in seconds',
  'dd/mm/yyyy': 'Day first (30/06/2026)',
  'mm/dd/yyyy': 'Month first (06/30/2026)',
};
/** The switch's labels, short enough for a phone's width; the full name is the title. */
const SHORT_NAMES: Record<StatementSource, string> = { issuer: 'Card issuer', chain: 'TronGrid', momo: 'Mobile money' };
const DELIMITERS = [
  { value: ',', label: 'Comma' },
  { value: ';', label: 'Semicolon' },
  { value: '\t', label: 'Tab' },
];

/** /admin/statements/sources: each source's columns and matching rules, set once and used for every upload. */
export default function StatementSources() {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const mayEdit = useCan('reconciliation.run');
  const [source, setSource] = useState<StatementSource>('chain');
  const [form] = Form.useForm<Values>();
  const sign = Form.useWatch(['mapping', 'sign'], form);
  const { busy, submit } = useSubmit();
  const { query, result } = useCustom<ApiStatementSource>({ url: `/statement-sources/${source}`, method: 'get' });
  const current = result.data as ApiStatementSource | undefined;

  useEffect(() => {
    if (current?.source === source) form.setFieldsValue({ mapping: current.mapping, rules: current.rules });
  }, [current, source, form]);

  async function save(v: Values) {
    const body = {
      mapping: { ...v.mapping, amount_scale: v.mapping.amount_scale ?? null, in_values: v.mapping.in_values ?? [] },
      rules: v.rules,
    };
    const r = await submit((key) =>
      apiData('PUT', `/statement-sources/${source}`, { body, idempotencyKey: key, silent: true }),
    );
    if (!r.ok)
      return sayFailure(
        form,
        r.error,
        (text) => message.error(text, 4),
        'The mapping was not saved. Please try again.',
      );
    message.success('Mapping saved: the next upload uses it.');
    void query.refetch();
  }

  return (
    <>
      <PageHeader
        title="Column Mappings"
        subtitle="Which column of each source's file holds what, and how its lines are matched."
        extra={<Button onClick={() => navigate('/admin/statements')}>Statements</Button>}
      />
      <Segmented<StatementSource>
        aria-label="Source"
        value={source}
        onChange={setSource}
        options={STATEMENT_SOURCES.map((s) => ({ value: s, label: SHORT_NAMES[s], title: STATEMENT_SOURCE_NAMES[s] }))}
        style={{ marginBottom: 16, maxWidth: '100%', overflowX: 'auto' }}
      />
      {!mayEdit && (
        <Alert
          type="info"
          showIcon
          message="Your role reads the mappings; Finance changes them."
          style={{ marginBottom: 16 }}
        />
      )}
      <Card style={{ maxWidth: 960 }}>
        {query.isLoading ? (
          <Skeleton active />
        ) : (
          <Form<Values>
            form={form}
            noValidate
            layout="vertical"
            requiredMark={false}
            disabled={!mayEdit}
            onFinish={save}
            onValuesChange={clearErrorsOnChange(form)}
            aria-label="Column mapping"
          >
            <Row gutter={16}>
              <Col xs={24} md={8}>
                <Form.Item name={['mapping', 'delimiter']} label="Delimiter">
                  <Select options={DELIMITERS} />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item name={['mapping', 'date_column']} label="Date column">
                  <Input />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item name={['mapping', 'date_format']} label="Date format">
                  <Select options={DATE_FORMATS.map((f) => ({ value: f, label: DATE_LABELS[f] }))} />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item name={['mapping', 'amount_column']} label="Amount column">
                  <Input />
                </Form.Item>
              </Col>
              <Col xs={12} md={8}>
                <Form.Item
                  name={['mapping', 'amount_scale']}
                  label="Implied decimals"
                  extra="For whole-number amounts: 6 for raw USDT. Empty for decimals."
                >
                  <InputNumber min={0} max={18} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col xs={12} md={8}>
                <Form.Item name={['mapping', 'decimal_separator']} label="Decimal separator">
                  <Select
                    options={[
                      { value: '.', label: 'Point (1,234.56)' },
                      { value: ',', label: 'Comma (1.234,56)' },
                    ]}
                  />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item name={['mapping', 'sign']} label="Direction">
                  <Select options={AMOUNT_SIGNS.map((s) => ({ value: s, label: SIGN_LABELS[s] }))} />
                </Form.Item>
              </Col>
              {sign === 'direction' && (
                <>
                  <Col xs={24} md={8}>
                    <Form.Item name={['mapping', 'direction_column']} label="Direction column">
                      <Input />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={8}>
                    <Form.Item name={['mapping', 'in_values']} label="Values that mean money in">
                      <Select mode="tags" tokenSeparators={[',']} open={false} />
                    </Form.Item>
                  </Col>
                </>
              )}
              <Col xs={24} md={8}>
                <Form.Item name={['mapping', 'reference_column']} label="Reference column">
                  <Input />
                </Form.Item>
              </Col>
            </Row>
            <Row gutter={16}>
              <Col xs={12} md={6}>
                <Form.Item name={['rules', 'tolerance']} label="Amount tolerance">
                  <Input inputMode="decimal" />
                </Form.Item>
              </Col>
              <Col xs={12} md={6}>
                <Form.Item name={['rules', 'window_hours']} label="Time window (hours)">
                  <InputNumber min={0} max={720} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col xs={12} md={6}>
                <Form.Item name={['rules', 'reference']} label="Reference">
                  <Select
                    options={[
                      { value: 'contains', label: 'Must contain ours' },
                      { value: 'off', label: 'Not used' },
                    ]}
                  />
                </Form.Item>
              </Col>
              <Col xs={12} md={6}>
                <Form.Item name={['rules', 'one_to_many']} label="One-to-many" valuePropName="checked">
                  <Switch />
                </Form.Item>
              </Col>
            </Row>
            {mayEdit && (
              <Button type="primary" htmlType="submit" loading={busy}>
                Save mapping
              </Button>
            )}
          </Form>
        )}
      </Card>
    </>
  );
}
