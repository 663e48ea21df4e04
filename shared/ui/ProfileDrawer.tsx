import { Alert, App, Button, Descriptions, Drawer, Form, Input, Segmented, Space } from 'antd';
import { useState } from 'react';
import { apiData } from '../api/client';
import { ApiError } from '../api/errors';
import { clearSession, updateIdentity } from '../api/session';
import { type ApiCompany, type ApiUser, PASSWORD_POLICY_MESSAGE, meetsPasswordPolicy } from '../contract';
import { applyFieldErrors } from './forms';
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

function PersonalForm({ user }: { user: ApiUser }) {
  const [form] = Form.useForm();
  const { saving, save } = useSave();
  async function submit(v: { first_name: string; last_name: string; phone_number: unknown }) {
    const r = await save(
      form,
      (key) =>
        apiData<Profile>('PUT', `/individuals/${user.id}`, {
          body: {
            first_name: v.first_name,
            last_name: v.last_name,
            phone_number: phoneToString(v.phone_number as never),
          },
          idempotencyKey: key,
          silent: true,
        }),
      'Your details were saved.',
    );
    if (r) updateIdentity(r.user, r.company);
  }
  return (
    <Form
      noValidate
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={submit}
      initialValues={{
        first_name: user.first_name,
        last_name: user.last_name,
        email: user.email,
        phone_number: user.phone_number ?? '',
      }}
    >
      <Form.Item
        name="first_name"
        label="First Name"
        rules={[{ required: true, whitespace: true, message: 'First Name is required' }]}
      >
        <Input />
      </Form.Item>
      <Form.Item
        name="last_name"
        label="Last Name"
        rules={[{ required: true, whitespace: true, message: 'Last Name is required' }]}
      >
        <Input />
      </Form.Item>
      <Form.Item name="email" label="Email">
        <Input readOnly disabled />
      </Form.Item>
      <PhoneItem of="person" />
      <Button type="primary" htmlType="submit" loading={saving}>
        Save Changes
      </Button>
    </Form>
  );
}

function CompanyForm({ company, editable }: { company: ApiCompany; editable: boolean }) {
  const [form] = Form.useForm();
  const { saving, save } = useSave();
  if (!editable) {
    return (
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label="Company Name">{company.company_name}</Descriptions.Item>
        <Descriptions.Item label="Company Website">{company.company_website}</Descriptions.Item>
        <Descriptions.Item label="Company Email">{company.company_email}</Descriptions.Item>
        <Descriptions.Item label="Company Phone">{company.company_phone}</Descriptions.Item>
      </Descriptions>
    );
  }
  async function submit(v: { company_name: string; company_website: string; company_phone: unknown }) {
    const r = await save(
      form,
      (key) =>
        apiData<Profile>('PUT', `/companies/${company.id}`, {
          body: {
            company_name: v.company_name,
            company_website: v.company_website,
            company_phone: phoneToString(v.company_phone as never),
          },
          idempotencyKey: key,
          silent: true,
        }),
      'Company details were saved.',
    );
    if (r) updateIdentity(r.user, r.company);
  }
  return (
    <Form
      noValidate
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={submit}
      initialValues={{
        company_name: company.company_name,
        company_website: company.company_website,
        company_email: company.company_email,
        company_phone: company.company_phone,
      }}
    >
      <Form.Item
        name="company_name"
        label="Company Name"
        rules={[{ required: true, whitespace: true, message: 'Company Name is required' }]}
      >
        <Input />
      </Form.Item>
      <Form.Item
        name="company_website"
        label="Company Website"
        rules={[{ required: true, whitespace: true, message: 'Company Website is required' }]}
      >
        <Input />
      </Form.Item>
      <Form.Item name="company_email" label="Company Email">
        <Input readOnly disabled />
      </Form.Item>
      <PhoneItem of="company" />
      <Button type="primary" htmlType="submit" loading={saving}>
        Save Changes
      </Button>
    </Form>
  );
}

const policyRule = {
  validator: async (_: unknown, v: string) => {
    if (v && !meetsPasswordPolicy(v)) throw new Error(PASSWORD_POLICY_MESSAGE);
  },
};

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
          rules={[{ required: true, message: 'Current password is required' }]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="new_password"
          label="New Password"
          extra="At least 8 characters with a lowercase letter, an uppercase letter, a digit and a special character."
          rules={[{ required: true, message: 'New password is required' }, policyRule]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm_password"
          label="Confirm Password"
          rules={[{ required: true, message: 'Confirm password is required' }, policyRule]}
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
