import { Alert, App, Button, Descriptions, Drawer, Form, Input, Segmented, Space } from 'antd';
import { useState } from 'react';
import { apiData } from '../api/client';
import { ApiError } from '../api/errors';
import { clearSession, updateIdentity } from '../api/session';
import type { ZodType } from 'zod';
import {
  type ApiCompany,
  PASSWORD_HINT,
  type ApiUser,
  changePasswordBody,
  updateCompanyBody,
  updateIndividualBody,
} from '../contract';
import { applyFieldErrors } from './forms';
import { formatPhone } from '../phone';
import { contractRule } from './contractRules';
import { PhoneItem, phoneToString } from './phone';
import { TwoFactorSettings } from './TwoFactorSettings';
import { useSession } from './useSession';
import { useSubmit } from './useSubmit';

type View = 'Personal Details' | 'Company Details' | 'Change Password' | 'Security';

/** The Profile side panel both apps open from their top bar. */
export function ProfileDrawer({
  open,
  onClose,
  onLoggedOut,
}: {
  open: boolean;
  onClose: () => void;
  onLoggedOut: () => void;
}) {
  const session = useSession();
  const [view, setView] = useState<View>('Personal Details');
  if (!session) return null;
  const views: View[] = session.company
    ? ['Personal Details', 'Company Details', 'Change Password', 'Security']
    : ['Personal Details', 'Change Password', 'Security'];
  return (
    <Drawer title="Profile" open={open} onClose={onClose} width={Math.min(480, window.innerWidth)} destroyOnHidden>
      {/* Stacked on phones: four names side by side in 390 px would each be cut. */}
      <Segmented<View>
        block
        vertical={window.innerWidth < 576}
        options={views}
        value={view}
        onChange={setView}
        style={{ marginBottom: 20 }}
      />
      {view === 'Personal Details' && <PersonalForm user={session.user} />}
      {view === 'Company Details' && session.company && (
        <CompanyForm company={session.company} editable={session.user.role === 'Company-Admin'} />
      )}
      {view === 'Change Password' && <PasswordForm user={session.user} onDone={onLoggedOut} />}
      {view === 'Security' && <TwoFactorSettings email={session.user.email} />}
    </Drawer>
  );
}

type Profile = { user: ApiUser; company: ApiCompany | null };

function useSave() {
  const { message } = App.useApp();
  const { busy: saving, submit } = useSubmit();
  async function save<T>(form: ReturnType<typeof Form.useForm>[0], call: (key: string) => Promise<T>, done: string) {
    const r = await submit(call);
    if (r.ok) {
      message.success(done, 2);
      return r.data;
    }
    if (!applyFieldErrors(form, r.error))
      message.error(r.error instanceof ApiError ? r.error.display : 'Could not save. Please try again.');
    return undefined;
  }
  return { saving, save };
}

/** A text field of the details forms, checked as the contract checks it. */
type DetailField = { name: string; label: string; schema: ZodType };

/**
 * Personal Details and Company Details: the same form over different fields. Saved with PUT to
 * `path`; the email is shown and never sent; the phone goes as "+<digits>".
 */
function DetailsForm({
  path,
  fields,
  email,
  phone,
  values,
  done,
}: {
  path: string;
  fields: DetailField[];
  email: { name: string; label: string };
  phone: { of: 'person' | 'company'; name: string };
  values: Record<string, string>;
  done: string;
}) {
  const [form] = Form.useForm();
  const { saving, save } = useSave();
  async function submit(v: Record<string, unknown>) {
    const body = Object.fromEntries(fields.map((f) => [f.name, v[f.name]]));
    const r = await save(
      form,
      (key) =>
        apiData<Profile>('PUT', path, {
          body: { ...body, [phone.name]: phoneToString(v[phone.name] as never) },
          idempotencyKey: key,
          silent: true,
        }),
      done,
    );
    if (r) updateIdentity(r.user, r.company);
  }
  return (
    <Form noValidate form={form} layout="vertical" requiredMark={false} onFinish={submit} initialValues={values}>
      {fields.map((f) => (
        <Form.Item key={f.name} name={f.name} label={f.label} rules={[contractRule(f.schema)]}>
          <Input />
        </Form.Item>
      ))}
      <Form.Item name={email.name} label={email.label}>
        <Input readOnly disabled />
      </Form.Item>
      <PhoneItem of={phone.of} />
      <Button type="primary" htmlType="submit" loading={saving}>
        Save Changes
      </Button>
    </Form>
  );
}

function PersonalForm({ user }: { user: ApiUser }) {
  return (
    <DetailsForm
      path={`/individuals/${user.id}`}
      fields={[
        { name: 'first_name', label: 'First Name', schema: updateIndividualBody.shape.first_name },
        { name: 'last_name', label: 'Last Name', schema: updateIndividualBody.shape.last_name },
      ]}
      email={{ name: 'email', label: 'Email' }}
      phone={{ of: 'person', name: 'phone_number' }}
      values={{
        first_name: user.first_name,
        last_name: user.last_name,
        email: user.email,
        phone_number: user.phone_number ?? '',
      }}
      done="Your details were saved."
    />
  );
}

function CompanyForm({ company, editable }: { company: ApiCompany; editable: boolean }) {
  if (!editable) {
    return (
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label="Company Name">{company.company_name}</Descriptions.Item>
        <Descriptions.Item label="Company Website">{company.company_website}</Descriptions.Item>
        <Descriptions.Item label="Company Email">{company.company_email}</Descriptions.Item>
        <Descriptions.Item label="Company Phone">{formatPhone(company.company_phone)}</Descriptions.Item>
      </Descriptions>
    );
  }
  return (
    <DetailsForm
      path={`/companies/${company.id}`}
      fields={[
        { name: 'company_name', label: 'Company Name', schema: updateCompanyBody.shape.company_name },
        { name: 'company_website', label: 'Company Website', schema: updateCompanyBody.shape.company_website },
      ]}
      email={{ name: 'company_email', label: 'Company Email' }}
      phone={{ of: 'company', name: 'company_phone' }}
      values={{
        company_name: company.company_name,
        company_website: company.company_website,
        company_email: company.company_email,
        company_phone: company.company_phone,
      }}
      done="Company details were saved."
    />
  );
}

function PasswordForm({ user, onDone }: { user: ApiUser; onDone: () => void }) {
  const [form] = Form.useForm();
  const { saving, save } = useSave();
  async function submit(v: { old_password: string; new_password: string; confirm_password: string }) {
    const r = await save(
      form,
      (key) =>
        apiData('PATCH', `/individuals/change-password/${user.id}`, { body: v, idempotencyKey: key, silent: true }),
      'Password changed. Please log in again.',
    );
    if (r) {
      clearSession();
      onDone();
    }
  }
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <Alert
        type="warning"
        showIcon
        message="Take care: changing your password signs you out everywhere, and you will need to log in again."
      />
      <Form noValidate form={form} layout="vertical" requiredMark={false} onFinish={submit}>
        <Form.Item
          name="old_password"
          label="Current Password"
          rules={[contractRule(changePasswordBody.shape.old_password)]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="new_password"
          label="New Password"
          extra={PASSWORD_HINT}
          rules={[contractRule(changePasswordBody.shape.new_password)]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm_password"
          label="Confirm Password"
          rules={[contractRule(changePasswordBody.shape.confirm_password)]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving}>
          Change Password
        </Button>
      </Form>
    </Space>
  );
}
