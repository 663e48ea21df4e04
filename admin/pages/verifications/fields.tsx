import { Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import type { ApiDocument, ApiVerificationDetail } from '@shared/contract';
import { dateTime } from '../../format';
import { documentLabel } from './documents';

const ID_TYPE_LABELS: Record<string, string> = {
  passport: 'Passport',
  'driver-license': "Driver's License",
  'national-id': 'National ID',
};

/** Labels of the submitted fields, in the order the customer's form asks for them. */
const LABELS: Record<string, string> = {
  identification: 'Identification',
  address: 'Address proof',
  selfie: 'Selfie with Id',
  registered_name: 'Registered Business name',
  tax_number: 'Company Tax ID',
  company_profile: 'Company profile',
  incorporation_date: 'Company Incorporation Date',
  operation_countries: 'Countries of operation',
  publicly_listed: 'Publicly listed',
  shareholder_passport: 'Shareholder passport',
  incorporation_certificate: 'Incorporation certificate',
  license: 'License',
  verification_meta: 'Verification meta',
};
/** Raw parts already shown joined (identification is "type:details"). */
const FOLDED = new Set(['id_type', 'issued_id']);

function identification(v: unknown) {
  const s = String(v ?? '');
  const i = s.indexOf(':');
  if (i < 0) return s || '—';
  const type = s.slice(0, i);
  return (
    <span>
      <Tag bordered={false}>{ID_TYPE_LABELS[type] ?? type}</Tag>
      <Typography.Text copyable>{s.slice(i + 1)}</Typography.Text>
    </span>
  );
}

/** A file reference ("/api/v1/files/{id}") names its document, shown further down the page. */
function fileRef(v: unknown, docs: ApiDocument[]) {
  if (!v) return <Typography.Text type="secondary">Not provided</Typography.Text>;
  const doc = docs.find((d) => String(v).endsWith(`/files/${d.id}`));
  if (!doc) return String(v);
  return (
    <a
      href={`#document-${doc.field}`}
      onClick={(e) => {
        e.preventDefault();
        document.getElementById(`document-${doc.field}`)?.scrollIntoView({ behavior: 'smooth' });
      }}
    >
      {doc.name} ({documentLabel(doc.field)})
    </a>
  );
}

function plainValue(v: unknown): ReactNode {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'object') {
    return (
      <span>
        {Object.entries(v as Record<string, unknown>).map(([k, x]) => (
          <span key={k} style={{ display: 'block' }}>
            {k.replace(/_/g, ' ')}: {typeof x === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(x) ? dateTime(x) : String(x)}
          </span>
        ))}
      </span>
    );
  }
  return String(v);
}

/** Every field the customer submitted, readable, with file references pointing at the documents. */
export function submittedFields(d: ApiVerificationDetail): Array<[string, ReactNode]> {
  const v = d.verifications ?? {};
  const keys = [
    ...Object.keys(LABELS).filter((k) => k in v),
    ...Object.keys(v).filter((k) => !(k in LABELS) && !FOLDED.has(k)),
  ];
  return keys.map((k): [string, ReactNode] => {
    const value = v[k];
    const label = LABELS[k] ?? k.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase());
    if (k === 'identification') return [label, identification(value)];
    if (['address', 'selfie', 'shareholder_passport', 'incorporation_certificate', 'license'].includes(k))
      return [label, fileRef(value, d.documents)];
    if (k === 'publicly_listed') return [label, value === 1 || value === true || value === '1' ? 'Yes' : 'No'];
    if (k === 'company_profile')
      return [
        label,
        <Typography.Paragraph key="p" style={{ margin: 0, whiteSpace: 'pre-wrap' }}>
          {String(value ?? '—')}
        </Typography.Paragraph>,
      ];
    return [label, plainValue(value)];
  });
}
