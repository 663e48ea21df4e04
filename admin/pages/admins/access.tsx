import { CheckCircleOutlined, LogoutOutlined, MoreOutlined, StopOutlined } from '@ant-design/icons';
import { App, Button, Dropdown, Flex, Tag, Tooltip, Typography, type MenuProps } from 'antd';
import { api } from '@shared/api/client';
import { messageOf } from '@shared/api/errors';
import { type ApiAdmin, can } from '@shared/contract';
import { useSession } from '@shared/ui/useSession';
import { useSubmit } from '@shared/ui/useSubmit';
import { dateTime } from '../../format';

/** The access review (issue 33): what the Admins screen tells of each staff member, and its actions. */

const name = (a: ApiAdmin) => `${a.first_name} ${a.last_name}`.trim();

const TWO_FACTOR: Record<ApiAdmin['two_factor'], { label: string; color: string; hint: string }> = {
  on: { label: 'On', color: 'green', hint: 'An authenticator app is set up.' },
  not_set_up: { label: 'Not set up', color: 'gold', hint: 'Set up at the next sign-in (never set up, or reset).' },
  reset_pending: { label: 'Reset pending', color: 'orange', hint: 'A reset was asked and waits for approval.' },
};

/** The table's column is headed "2FA": its tag says on or not; the phone's row says "2FA" in the tag. */
export function TwoFactorTag({ a, named = false }: { a: ApiAdmin; named?: boolean }) {
  const t = TWO_FACTOR[a.two_factor];
  return (
    <Tooltip title={t.hint}>
      <Tag color={t.color} bordered={false} style={{ marginInlineEnd: 0 }}>
        {named ? `2FA ${t.label.toLowerCase()}` : t.label}
      </Tag>
    </Tooltip>
  );
}

/** Date above time, so the column stays narrow. */
export function LastSignIn({ a }: { a: ApiAdmin }) {
  if (!a.last_sign_in_at) return <Typography.Text type="secondary">Never</Typography.Text>;
  const [day, time] = dateTime(a.last_sign_in_at).split(', ');
  return (
    <Flex vertical style={{ whiteSpace: 'nowrap' }}>
      <span>{day}</span>
      <Typography.Text type="secondary">{time}</Typography.Text>
    </Flex>
  );
}

const sessionsText = (n: number) => (n === 1 ? '1 open session' : `${n} open sessions`);

/** The phone's lines of it: last sign-in and open sessions (the 2FA tag goes with the state's). */
export function AccessLines({ a }: { a: ApiAdmin }) {
  return (
    <>
      <Typography.Text type="secondary">
        Last sign-in: {a.last_sign_in_at ? dateTime(a.last_sign_in_at) : 'never'}
      </Typography.Text>
      <Typography.Text type="secondary">{sessionsText(a.open_sessions)}</Typography.Text>
    </>
  );
}

/** End sessions, Deactivate and Reactivate, each confirmed first; the server's message is the toast. */
function useAccessActions(done: () => void) {
  const { message, modal } = App.useApp();
  const { submit } = useSubmit();

  async function send<T>(path: string, method: 'POST' | 'DELETE', failed: string, said: (d: T) => string) {
    const r = await submit((key) => api<{ data: T }>(method, path, { idempotencyKey: key }));
    if (r.ok) message.success(said(r.data.data));
    else message.error(messageOf(r.error, failed));
    done();
  }
  const path = (a: ApiAdmin, tail: string) => `/account/admins/${encodeURIComponent(a.id)}/${tail}`;

  return {
    endSessions: (a: ApiAdmin) =>
      modal.confirm({
        title: 'End Sessions',
        content: `Do you want to end every session of ${name(a)}? They are signed out at once on every device and can sign in again.`,
        okText: 'End sessions',
        okButtonProps: { danger: true },
        cancelText: 'Cancel',
        onOk: () =>
          send<{ message: string }>(
            path(a, 'sessions'),
            'DELETE',
            'The sessions were not ended. Please try again.',
            (d) => d.message,
          ),
      }),
    deactivate: (a: ApiAdmin) =>
      modal.confirm({
        title: 'Deactivate Admin',
        content: `Do you want to deactivate ${name(a)}? They are signed out at once and cannot sign in until reactivated.`,
        okText: 'Deactivate',
        okButtonProps: { danger: true },
        cancelText: 'Cancel',
        onOk: () =>
          send<string>(path(a, 'deactivate'), 'POST', 'The admin was not deactivated. Please try again.', (d) => d),
      }),
    reactivate: (a: ApiAdmin) =>
      modal.confirm({
        title: 'Reactivate Admin',
        content: `Do you want to reactivate ${name(a)}? They can sign in again with their role as before.`,
        okText: 'Reactivate',
        cancelText: 'Cancel',
        onOk: () =>
          send<string>(path(a, 'reactivate'), 'POST', 'The admin was not reactivated. Please try again.', (d) => d),
      }),
  };
}

/**
 * The row's access menu, for who may manage staff only; on one's own row its entries are disabled
 * (nobody deactivates themselves; one's own session ends by logging out).
 */
export function useAccessMenu(done: () => void) {
  const session = useSession()?.user;
  const actions = useAccessActions(done);
  if (!can(session?.role, 'staff.manage')) return () => null;
  return function accessMenu(a: ApiAdmin) {
    const self = a.id === session?.id;
    const items: MenuProps['items'] = [
      { key: 'end-sessions', label: 'End sessions', icon: <LogoutOutlined />, disabled: self },
      a.state === 'Deactivated'
        ? { key: 'reactivate', label: 'Reactivate', icon: <CheckCircleOutlined />, disabled: self }
        : { key: 'deactivate', label: 'Deactivate', icon: <StopOutlined />, danger: true, disabled: self },
    ];
    return (
      <Dropdown
        trigger={['click']}
        placement="bottomRight"
        menu={{
          items,
          onClick: ({ key, domEvent }) => {
            domEvent.stopPropagation();
            if (key === 'end-sessions') actions.endSessions(a);
            else if (key === 'deactivate') actions.deactivate(a);
            else actions.reactivate(a);
          },
        }}
      >
        <Button
          icon={<MoreOutlined />}
          aria-label={`Access actions for ${name(a)}`}
          onClick={(e) => e.stopPropagation()}
        />
      </Dropdown>
    );
  };
}
