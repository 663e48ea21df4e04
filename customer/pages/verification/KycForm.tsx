import { Col, Form, Input, Select } from 'antd';
import { ID_TYPES, KYC_FILES, kycFields } from '@shared/contract';
import { NOT_ARIA_REQUIRED } from '@shared/ui/forms';
import { contractRule } from '@shared/ui/contractRules';
import { DocumentItem, VerificationForm } from './VerificationForm';

type IdType = (typeof ID_TYPES)[number];
const ID_TYPE_LABELS: Record<IdType, string> = {
  passport: 'Passport',
  'driver-license': "Driver's License",
  'national-id': 'National ID',
};
const FIELDS = [...Object.keys(kycFields.shape), ...Object.keys(KYC_FILES)];

interface KycValues {
  id_type: IdType;
  issued_id: string;
  address_proof: File;
  selfie_image: File;
}

/** The individual's KYC: identification and two documents, sent as one multipart form. */
export function KycForm({ userId }: { userId: string }) {
  return (
    <VerificationForm<KycValues>
      path={`/individuals/kyc/${userId}`}
      fields={FIELDS}
      initialValues={{ id_type: 'national-id' }}
      toBody={(v) => ({
        id_type: v.id_type,
        issued_id: v.issued_id.trim(),
        address_proof: v.address_proof,
        selfie_image: v.selfie_image,
      })}
    >
      <Col xs={24} md={12}>
        <Form.Item
          required={NOT_ARIA_REQUIRED}
          name="id_type"
          label="Identification type"
          // The server falls back to a national id; the form asks for the type.
          rules={[contractRule(kycFields.shape.id_type.unwrap())]}
        >
          <Select options={ID_TYPES.map((t) => ({ value: t, label: ID_TYPE_LABELS[t] }))} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item
          name="issued_id"
          label="Issued id details"
          extra="The number printed on the document"
          rules={[contractRule(kycFields.shape.issued_id)]}
        >
          <Input autoComplete="off" maxLength={100} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <DocumentItem
          name="address_proof"
          label="Address proof"
          extra="A recent utility bill or bank statement"
          required={KYC_FILES.address_proof}
        />
      </Col>
      <Col xs={24} md={12}>
        <DocumentItem
          name="selfie_image"
          label="Selfie with Id"
          extra="A photo of you holding the document"
          required={KYC_FILES.selfie_image}
        />
      </Col>
    </VerificationForm>
  );
}
