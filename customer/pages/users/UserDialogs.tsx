import { Alert, App, Button, Drawer, Form, Input, Modal, Space, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { apiData } from '@shared/api/client';
import { ApiError } from '@shared/api/errors';
import { type CompanyUserRow, createCompanyUserBody, splitFullName } from '@shared/contract';
import { applyFieldErrors } from '@shared/ui/forms';
import { contractRule, requiredRule } from '@shared/ui/contractRules';
import { PhoneItem, phoneToString } from '@shared/ui/phone';
import { useSubmit } from '@shared/ui/useSubmit';

type Permission = 'admin' | 'user';

/** Two mutually exclusive toggles: Admin Privileges / User Privileges. */
function PermissionToggles({
  value,
  onChange,
}: {
  value?: Permission;
  onChange?: (v: Permission | undefined) => void;
}) {
  return (
    <Space direction="vertical">
      <label>
        <Switch
          checked={value === 'admin'}
          onChange={(on) => onChange?.(on ? 'admin' : undefined)}
          aria-label="Admin Privileges"
        />{' '}
        Admin Privileges
      </label>
      <label>
        <Switch
          checked={value === 'user'}
          onChange={(on) => onChange?.(on ? 'user' : undefined)}
          aria-label="User Privileges"
        />{' '}
        User Privileges
      </label>
    </Space>
  );
}

function useDialogSubmit() {
  const { message } = App.useApp();
  const { busy, submit } = useSubmit();
  const [error, setError] = useState<string>();
  async function run<T>(fn: (key: string) => Promise<T>, ok: string, form?: ReturnType<typeof Form.useForm>[0]) {
    setError(undefined);
    const r = await submit(fn);
    if (r.ok) {
      message.success(ok, 2);
      return r.data;
    }
    if (!form || !applyFieldErrors(form, r.error))
      setError(r.error instanceof ApiError ? r.error.display : 'Something went wrong. Please try again.');
    return undefined;
  }
  return { busy, error, setError, run };
}

export function AddUserDrawer({
  open,
  companyId,
  onClose,
  onDone,
}: {
  open: boolean;
  companyId: string;
  onClose(): void;
  onDone(): void;
}) {
  const [form] = Form.useForm();
  const { busy, error, setError, run } = useDialogSubmit();
  useEffect(() => {
    if (open) {
      form.resetFields();
      setError(undefined);
    }
  }, [open, form, setError]);

  async function submit(v: { full_name: string; email: string; phone_number: unknown; role: Permission }) {
    const r = await run(
      (key) =>
        apiData('POST', `/company/users/${companyId}`, {
          body: {
            ...splitFullName(v.full_name),
            email: v.email.trim(),
            phone_number: phoneToString(v.phone_number as never),
            role: v.role,
          },
          idempotencyKey: key,
          silent: true,
        }),
      'User added. We have sent them an invitation.',
      form,
    );
    if (r) onDone();
  }

  return (
    <Drawer title="Add New user" open={open} onClose={onClose} width={Math.min(460, window.innerWidth)} destroyOnHidden>
      <Typography.Paragraph type="secondary">
        Kindly provide correct email and set permission for the user
      </Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      <Form noValidate form={form} layout="vertical" requiredMark={false} onFinish={submit}>
        <Form.Item
          name="full_name"
          label="Full Name"
          // One input for both names: the first name's message is the one that names it.
          rules={[requiredRule(createCompanyUserBody.shape.first_name)]}
          extra="First and last name, separated by a space"
        >
          <Input />
        </Form.Item>
        <Form.Item name="email" label="Email" rules={[contractRule(createCompanyUserBody.shape.email)]}>
          <Input type="email" />
        </Form.Item>
        <PhoneItem of="person" />
        <Form.Item name="role" label="Permission" rules={[contractRule(createCompanyUserBody.shape.role)]}>
          <PermissionToggles />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} block>
          Add User
        </Button>
      </Form>
    </Drawer>
  );
}

export function EditUserModal({
  companyId,
  row,
  onClose,
  onDone,
}: {
  companyId: string;
  row: CompanyUserRow | null;
  onClose(): void;
  onDone(): void;
}) {
  const [role, setRole] = useState<Permission | undefined>();
  const { busy, error, setError, run } = useDialogSubmit();
  useEffect(() => {
    setRole(row?.role);
    setError(undefined);
  }, [row, setError]);
  async function save() {
    if (!row) return;
    if (!role) return setError('Permission is required');
    const r = await run(
      (key) =>
        apiData('PUT', `/company/users/${companyId}/${row.id}`, { body: { role }, idempotencyKey: key, silent: true }),
      'Privileges updated.',
    );
    if (r) onDone();
  }
  return (
    <Modal
      title="Edit User"
      open={!!row}
      destroyOnHidden
      onCancel={onClose}
      footer={
        <Button type="primary" loading={busy} onClick={save}>
          Save Changes
        </Button>
      }
    >
      <Typography.Paragraph>You are about to edit privileges for this user, {row?.email}</Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
      <Space direction="vertical">
        <label>
          <Switch checked={role === 'admin'} onChange={(on) => setRole(on ? 'admin' : undefined)} aria-label="Admin" />{' '}
          Admin
        </label>
        <label>
          <Switch checked={role === 'user'} onChange={(on) => setRole(on ? 'user' : undefined)} aria-label="User" />{' '}
          User
        </label>
      </Space>
    </Modal>
  );
}

export function DeleteUserModal({
  companyId,
  row,
  onClose,
  onDone,
}: {
  companyId: string;
  row: CompanyUserRow | null;
  onClose(): void;
  onDone(): void;
}) {
  const { busy, error, setError, run } = useDialogSubmit();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the error of one row must not show on the next
  useEffect(() => setError(undefined), [row, setError]);
  async function remove() {
    if (!row) return;
    const r = await run(
      (key) => apiData('DELETE', `/company/users/${companyId}/${row.id}`, { idempotencyKey: key, silent: true }),
      'User deleted.',
    );
    if (r) onDone();
  }
  return (
    <Modal
      title="Delete User"
      open={!!row}
      destroyOnHidden
      onCancel={onClose}
      footer={
        <Button danger type="primary" loading={busy} onClick={remove}>
          Delete
        </Button>
      }
    >
      <Typography.Paragraph>
        You are about to delete this user, {row?.email}. Click the delete button to delete
      </Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} />}
    </Modal>
  );
}
