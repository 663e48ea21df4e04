import { Col, DatePicker, Form, Input, Switch } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { KYB_FILES, kybFields } from '@shared/contract';
import { contractRule } from '@shared/ui/contractRules';
import { DocumentItem, VerificationForm } from './VerificationForm';

const FIELDS = [...Object.keys(kybFields.shape), ...Object.keys(KYB_FILES)];

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

const DAY = 'YYYY-MM-DD';

/** "gh, ng ,, CI" → "GH,NG,CI" */
const countries = (v?: string) =>
  (v ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean)
    .join(',');

/** The company's KYB, sent by its Company-Admin as one multipart form. */
export function KybForm({ companyId, companyName }: { companyId: string; companyName?: string }) {
  return (
    <VerificationForm<KybValues>
      path={`/company/kyb/${companyId}`}
      fields={FIELDS}
      initialValues={{ registered_name: companyName, publicly_listed: false }}
      toBody={(v) => ({
        registered_name: v.registered_name.trim(),
        company_profile: v.company_profile.trim(),
        tax_number: v.tax_number.trim(),
        incorporation_date: v.incorporation_date.format(DAY),
        operation_countries: countries(v.operation_countries),
        publicly_listed: !!v.publicly_listed,
        incorporation_certificate: v.incorporation_certificate,
        license: v.license,
        shareholder_passport: v.shareholder_passport,
      })}
    >
      <Col xs={24} md={12}>
        <Form.Item
          name="registered_name"
          label="Registered Business name"
          rules={[contractRule(kybFields.shape.registered_name)]}
        >
          <Input maxLength={200} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="tax_number" label="Company Tax ID" rules={[contractRule(kybFields.shape.tax_number)]}>
          <Input maxLength={100} autoComplete="off" />
        </Form.Item>
      </Col>
      <Col xs={24}>
        <Form.Item
          name="company_profile"
          label="Company profile"
          extra="What the company does, and where"
          rules={[contractRule(kybFields.shape.company_profile)]}
        >
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} maxLength={5000} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item
          name="incorporation_date"
          label="Company Incorporation Date"
          rules={[contractRule(kybFields.shape.incorporation_date, (d: Dayjs) => d.format(DAY))]}
        >
          <DatePicker
            format={DAY}
            placeholder={DAY}
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
        <DocumentItem
          name="shareholder_passport"
          label="Shareholder passport"
          required={KYB_FILES.shareholder_passport}
        />
      </Col>
      <Col xs={24} md={8}>
        <DocumentItem
          name="incorporation_certificate"
          label="Incorporation certificate"
          extra="Optional"
          required={KYB_FILES.incorporation_certificate}
        />
      </Col>
      <Col xs={24} md={8}>
        <DocumentItem name="license" label="License" extra="Optional" required={KYB_FILES.license} />
      </Col>
    </VerificationForm>
  );
}
