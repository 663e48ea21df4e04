import { Button, Col, Form, Input, Row, Select } from 'antd';
import { ID_TYPES, KYC_FILES } from '@shared/contract';
import { useIsPhone } from '@shared/ui/wallet';
import { FileField, fileRules } from './FileField';
import { appendAll, useVerificationSubmit } from './useVerification';
import { NOT_ARIA_REQUIRED } from '@shared/ui/forms';

type IdType = (typeof ID_TYPES)[number];
const ID_TYPE_LABELS: Record<IdType, string> = {
  passport: 'Passport',
  'driver-license': "Driver's License",
  'national-id': 'National ID',
};
const FIELDS = ['id_type', 'issued_id', 'address_proof', 'selfie_image'] as const;

interface KycValues {
  id_type: IdType;
  issued_id: string;
  address_proof: File;
  selfie_image: File;
}

/** The individual's KYC: identification and two documents, sent as one multipart form. */
export function KycForm({ userId }: { userId: string }) {
  const phone = useIsPhone();
  const [form] = Form.useForm<KycValues>();
  const { busy, send } = useVerificationSubmit(`/individuals/kyc/${userId}`, form, FIELDS);

  const onFinish = (v: KycValues) =>
    send(
      appendAll(new FormData(), {
        id_type: v.id_type,
        issued_id: v.issued_id.trim(),
        address_proof: v.address_proof,
        selfie_image: v.selfie_image,
      }),
    );

  return (
    <Form
      noValidate
      form={form}
      layout="vertical"
      requiredMark
      onFinish={onFinish}
      initialValues={{ id_type: 'national-id' }}
      disabled={busy}
      scrollToFirstError
    >
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item
            required={NOT_ARIA_REQUIRED}
            name="id_type"
            label="Identification type"
            rules={[{ required: true, message: 'Identification type is required' }]}
          >
            <Select options={ID_TYPES.map((t) => ({ value: t, label: ID_TYPE_LABELS[t] }))} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="issued_id"
            label="Issued id details"
            extra="The number printed on the document"
            rules={[
              { required: true, whitespace: true, message: 'Issued id details is required' },
              { max: 100, message: 'Must be at most 100 characters' },
            ]}
          >
            <Input autoComplete="off" maxLength={100} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="address_proof"
            label="Address proof"
            extra="A recent utility bill or bank statement"
            rules={fileRules(KYC_FILES.address_proof)}
          >
            <FileField />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="selfie_image"
            label="Selfie with Id"
            extra="A photo of you holding the document"
            rules={fileRules(KYC_FILES.selfie_image)}
          >
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
