import { Alert, App, Button, Drawer, Flex, Form, Input, Switch, Typography } from 'antd';
import { useState } from 'react';
import {
  type ApiAdmin,
  PASSWORD_POLICY_MESSAGE,
  ROLE_DESCRIPTIONS,
  STAFF_ROLE_KEYS,
  adminRoleField,
  createAdminBody,
  meetsPasswordPolicy,
  splitFullName,
  updateAdminBody,
} from '@shared/contract';
import { contractRule, requiredMessage, requiredRule } from '@shared/ui/contractRules';
import { PhoneField, phoneRule, phoneToString } from '@shared/ui/phone';
import { usePanelForm } from '../../components/refineForms';
import { adminName } from './columns';
import { doneOrSent } from '../../components/approvals';

type Role = ApiAdmin['role'];

/** The toggles in the order people read them: spec §4's two, then the roles by job (issue 33). */
const TOGGLES: Array<{ role: Role; label: string }> = [
  { role: 'admin', label: 'Admin Privileges' },
  { role: 'super-admin', label: 'Super Admin Privileges' },
  { role: 'compliance', label: 'Compliance Privileges' },
  { role: 'finance', label: 'Finance Privileges' },
  { role: 'support', label: 'Support Privileges' },
  { role: 'auditor', label: 'Auditor Privileges' },
];

/** Spec §4's privilege toggles, one per role, one at a time, each with what the role may do. */
function RoleToggles({ value, onChange }: { value?: Role; onChange?: (v: Role | undefined) => void }) {
  return (
    <Flex vertical gap={10}>
      {TOGGLES.map((t) => (
        <label key={t.role}>
          <Switch
            checked={value === t.role}
            onChange={(on) => onChange?.(on ? t.role : undefined)}
            aria-label={t.label}
          />{' '}
          {t.label}
          <Typography.Text type="secondary" style={{ display: 'block', marginInlineStart: 52, fontSize: 13 }}>
            {ROLE_DESCRIPTIONS[STAFF_ROLE_KEYS[t.role]]}
          </Typography.Text>
        </label>
      ))}
    </Flex>
  );
}

const roleRules = [contractRule(adminRoleField)];
const emailRules = [contractRule(createAdminBody.shape.email)];
/** Digits typed after the country code. */
const phoneDigits = (v: unknown) =>
  typeof v === 'string'
    ? v.replace(/\D/g, '').length
    : v && typeof v === 'object'
      ? `${(v as { areaCode?: string }).areaCode ?? ''}${(v as { phoneNumber?: string }).phoneNumber ?? ''}`.length
      : 0;
const drawerWidth = () => Math.min(460, window.innerWidth);
const FALLBACK = 'Something went wrong. Please try again.';

/** Full Name on the form; first and last name (from it) in what POST /account/admins takes. */
type AddForm = {
  full_name?: string;
  first_name?: string;
  last_name?: string;
  email: string;
  phone_number: unknown;
  role: Role;
};

/** 'Add Admin': the new admin is mailed a link to set a password. */
export function AddAdminDrawer({ open, onClose, onDone }: { open: boolean; onClose(): void; onDone(): void }) {
  return (
    <Drawer title="Add Admin" open={open} onClose={onClose} width={drawerWidth()} destroyOnHidden>
      <AddAdminForm onDone={onDone} />
    </Drawer>
  );
}

/** Mounted each time the drawer opens, so every opening starts empty. */
function AddAdminForm({ onDone }: { onDone(): void }) {
  const { message } = App.useApp();
  const [error, setError] = useState<string>();
  const { formProps, busy, submit } = usePanelForm<AddForm>({
    action: 'create',
    resource: 'administration-admins',
    say: setError,
    fallback: FALLBACK,
    rename: { first_name: 'full_name', last_name: 'full_name' },
    onSaved: (v, answer) => {
      message.success(doneOrSent(answer, `Admin added. ${v.first_name} was sent an email to set a password.`));
      onDone();
    },
  });

  function save(v: AddForm) {
    setError(undefined);
    submit({
      ...splitFullName(v.full_name ?? ''),
      email: v.email.trim(),
      phone_number: phoneToString(v.phone_number as never),
      role: v.role,
    });
  }

  return (
    <>
      <Typography.Paragraph type="secondary">
        The new admin gets an email with a link to set a password, then sets up two-factor authentication at the first
        login.
      </Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} role="alert" />}
      <Form<AddForm> noValidate {...formProps} layout="vertical" requiredMark={false} onFinish={save}>
        <Form.Item
          name="full_name"
          label="Full Name"
          extra="First and last name, separated by a space"
          rules={[
            // One input for both names: each name's message is the one that names it.
            requiredRule(createAdminBody.shape.first_name),
            {
              validator: async (_, v?: string) => {
                if (v?.trim() && !splitFullName(v).last_name)
                  throw new Error(requiredMessage(createAdminBody.shape.last_name));
              },
            },
          ]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="email" label="Email" rules={emailRules}>
          <Input type="email" autoComplete="off" />
        </Form.Item>
        <Form.Item name="phone_number" label="Phone Number" rules={[phoneRule(createAdminBody.shape.phone_number)]}>
          <PhoneField />
        </Form.Item>
        <Form.Item name="role" label="Permission" rules={roleRules}>
          <RoleToggles />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} block>
          Add Admin
        </Button>
      </Form>
    </>
  );
}

type EditForm = {
  first_name: string;
  last_name: string;
  email: string;
  /** the picker's value on the form, the number as text (when there is one) in what is sent */
  phone_number?: unknown;
  role?: Role;
  password?: string;
  confirm_password?: string;
};

/** 'Edit Admin': names, email, phone, privileges and, optionally, a new password. */
export function EditAdminDrawer({
  admin,
  meId,
  onClose,
  onDone,
}: {
  admin: ApiAdmin | null;
  meId?: string;
  onClose(): void;
  onDone(): void;
}) {
  return (
    <Drawer title="Edit Admin" open={!!admin} onClose={onClose} width={drawerWidth()} destroyOnHidden>
      {admin && <EditAdminForm key={admin.id} admin={admin} meId={meId} onDone={onDone} />}
    </Drawer>
  );
}

function EditAdminForm({ admin, meId, onDone }: { admin: ApiAdmin; meId?: string; onDone(): void }) {
  const { message } = App.useApp();
  const [error, setError] = useState<string>();
  const { formProps, busy, submit } = usePanelForm<EditForm>({
    action: 'edit',
    resource: 'administration-admins',
    id: admin.id,
    say: setError,
    fallback: FALLBACK,
    onSaved: (v, answer) => {
      message.success(doneOrSent(answer, `Admin ${v.first_name} ${v.last_name} updated.`));
      onDone();
    },
  });

  function save(v: EditForm) {
    setError(undefined);
    // Only the country code (the picker's default) is no number.
    const phone = phoneDigits(v.phone_number) > 0 ? phoneToString(v.phone_number as never) : '';
    submit({
      first_name: v.first_name.trim(),
      last_name: v.last_name.trim(),
      email: v.email.trim(),
      ...(phone ? { phone_number: phone } : {}),
      ...(v.role ? { role: v.role } : {}),
      ...(v.password ? { password: v.password, confirm_password: v.confirm_password ?? '' } : {}),
    });
  }

  return (
    <>
      <Typography.Paragraph type="secondary">
        {admin.id === meId
          ? 'Your own account. A new email or password signs you out.'
          : `${adminName(admin)} is signed out when the email, password or privileges change.`}
      </Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} role="alert" />}
      <Form<EditForm>
        noValidate
        {...formProps}
        layout="vertical"
        requiredMark={false}
        onFinish={save}
        initialValues={{
          first_name: admin.first_name,
          last_name: admin.last_name,
          email: admin.email,
          phone_number: admin.phone_number ?? '',
          role: admin.role,
        }}
      >
        <Form.Item
          name="first_name"
          label="First Name"
          rules={[requiredRule(updateAdminBody.shape.first_name), { max: 100 }]}
        >
          <Input />
        </Form.Item>
        <Form.Item
          name="last_name"
          label="Last Name"
          rules={[requiredRule(updateAdminBody.shape.last_name), { max: 100 }]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="email" label="Email" rules={emailRules}>
          <Input type="email" />
        </Form.Item>
        <Form.Item name="phone_number" label="Phone Number" rules={[phoneRule(updateAdminBody.shape.phone_number)]}>
          <PhoneField />
        </Form.Item>
        <Form.Item name="role" label="Permission" rules={roleRules}>
          <RoleToggles />
        </Form.Item>
        <Form.Item
          name="password"
          label="New Password"
          extra="Leave empty to keep the current password."
          rules={[
            {
              validator: async (_, p?: string) => {
                if (p && !meetsPasswordPolicy(p)) throw new Error(PASSWORD_POLICY_MESSAGE);
              },
            },
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm_password"
          label="Confirm Password"
          dependencies={['password']}
          rules={[
            ({ getFieldValue }) => ({
              validator: async (_, c?: string) => {
                if ((getFieldValue('password') || c) && c !== getFieldValue('password'))
                  throw new Error('Passwords do not match');
              },
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} block>
          Save
        </Button>
      </Form>
    </>
  );
}
