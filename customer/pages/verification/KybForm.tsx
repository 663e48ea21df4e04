import { Button, Col, DatePicker, Form, Input, Row, Switch } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { KYB_FILES } from '@shared/contract';
import { useIsPhone } from '@shared/ui/wallet';
import { FileField, fileRules } from './FileField';
import { appendAll, useVerificationSubmit } from './useVerification';

const FIELDS = [
  'registered_name',
  'company_profile',
  'tax_number',
  'incorporation_date',
  'operation_countries',
  'publicly_listed',
  'incorporation_certificate',
  'license',
  'shareholder_passport',
] as const;

interface KybValues {
  registered_name: string;
  company_profile: string;
  tax_number: string;
  incorporation_date: Dayjs;
  operation_countries?: string;
  publicly_listed?: boolean;
  incorporation_certificate?: File;
  license?: File;
  shareholder_passport: File;
}

/** "gh, ng ,, CI" → "GH,NG,CI" */
const countries = (v?: string) =>
  (v ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean)
    .join(',');

/** The company's KYB, sent by its Company-Admin as one multipart form. */
export function KybForm({ companyId, companyName }: { companyId: string; companyName?: string }) {
  const phone = useIsPhone();
  const [form] = Form.useForm<KybValues>();
  const { busy, send } = useVerificationSubmit(`/company/kyb/${companyId}`, form, FIELDS);

  const onFinish = (v: KybValues) =>
    send(
      appendAll(new FormData(), {
        registered_name: v.registered_name.trim(),
        company_profile: v.company_profile.trim(),
        tax_number: v.tax_number.trim(),
        incorporation_date: v.incorporation_date.format('YYYY-MM-DD'),
        operation_countries: countries(v.operation_countries),
        publicly_listed: !!v.publicly_listed,
        incorporation_certificate: v.incorporation_certificate,
        license: v.license,
        shareholder_passport: v.shareholder_passport,
      }),
    );

  return (
    <Form
      noValidate
      form={form}
      layout="vertical"
      onFinish={onFinish}
      initialValues={{ registered_name: companyName, publicly_listed: false }}
      disabled={busy}
      scrollToFirstError
    >
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item
            name="registered_name"
            label="Registered Business name"
            rules={[
              { required: true, whitespace: true, message: 'Registered Business name is required' },
              { max: 200, message: 'Must be at most 200 characters' },
            ]}
          >
            <Input maxLength={200} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="tax_number"
            label="Company Tax ID"
            rules={[
              { required: true, whitespace: true, message: 'Company Tax ID is required' },
              { max: 100, message: 'Must be at most 100 characters' },
            ]}
          >
            <Input maxLength={100} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24}>
          <Form.Item
            name="company_profile"
            label="Company profile"
            extra="What the company does, and where"
            rules={[
              { required: true, whitespace: true, message: 'Company profile is required' },
              { max: 5000, message: 'Must be at most 5000 characters' },
            ]}
          >
            <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} maxLength={5000} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="incorporation_date"
            label="Company Incorporation Date"
            rules={[{ required: true, message: 'Company Incorporation Date is required' }]}
          >
            <DatePicker
              format="YYYY-MM-DD"
              placeholder="YYYY-MM-DD"
              style={{ width: '100%' }}
              disabledDate={(d) => d.isAfter(dayjs(), 'day')}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="operation_countries"
            label="Countries of operation"
            extra="Optional, separated by commas, e.g. GH, NG, CI"
          >
            <Input maxLength={500} />
          </Form.Item>
        </Col>
        <Col xs={24}>
          <Form.Item name="publicly_listed" label="Publicly listed" valuePropName="checked">
            <Switch checkedChildren="Yes" unCheckedChildren="No" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item
            name="shareholder_passport"
            label="Shareholder passport"
            rules={fileRules(KYB_FILES.shareholder_passport)}
          >
            <FileField />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item
            name="incorporation_certificate"
            label="Incorporation certificate"
            extra="Optional"
            rules={fileRules(null)}
          >
            <FileField />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="license" label="License" extra="Optional" rules={fileRules(null)}>
            <FileField />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item style={{ marginBottom: 0 }}>
        <Button type="primary" htmlType="submit" loading={busy} size="large" block={phone}>
          Submit
        </Button>
      </Form.Item>
    </Form>
  );
}
