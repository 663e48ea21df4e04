import { Alert, App, Skeleton, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { api, apiData } from '../../api/client';
import type { ApiNotificationSetting, NotificationGroup } from '../../contract';

const GROUPS: Record<NotificationGroup, string> = {
  money: 'Money',
  account: 'Account',
  security: 'Security',
  staff: 'Review queue',
};

/** A mail switch per notification type; security mails are always sent, so theirs is on and locked. */
export function NotificationSettings() {
  const { message } = App.useApp();
  const [rows, setRows] = useState<ApiNotificationSetting[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState<string | null>(null);

  useEffect(() => {
    apiData<ApiNotificationSetting[]>('GET', '/account/notification-settings', { silent: true }).then(setRows, () =>
      setFailed(true),
    );
  }, []);

  const change = async (type: string, mail: boolean) => {
    setSaving(type);
    try {
      const res = await api<{ data: ApiNotificationSetting[] }>('PUT', '/account/notification-settings', {
        body: { mail: { [type]: mail } },
      });
      setRows(res.data);
      message.success('Saved');
    } catch {
      /* the client showed why */
    } finally {
      setSaving(null);
    }
  };

  if (failed) return <Alert type="error" showIcon message="The settings could not be loaded." />;
  if (!rows) return <Skeleton active />;
  const groups = [...new Set(rows.map((r) => r.group))];
  return (
    <div>
      <Typography.Paragraph type="secondary">
        Every notification appears here in the app. Choose which ones are also sent to you by email.
      </Typography.Paragraph>
      {groups.map((g) => (
        <section key={g} aria-labelledby={`cw-ns-${g}`} style={{ marginBottom: 16 }}>
          <Typography.Title level={3} id={`cw-ns-${g}`} style={{ fontSize: 15, marginBottom: 8 }}>
            {GROUPS[g]}
          </Typography.Title>
          {rows
            .filter((r) => r.group === g)
            .map((r) => (
              <div
                key={r.type}
                style={{
                  display: 'flex',
                  justifyContent: 'space-between',
                  alignItems: 'center',
                  gap: 12,
                  padding: '6px 0',
                }}
              >
                <div>
                  <span id={`cw-ns-l-${r.type}`}>{r.label}</span>
                  {r.locked && (
                    <Typography.Text
                      type="secondary"
                      style={{ display: 'block', fontSize: 12 }}
                      id={`cw-ns-n-${r.type}`}
                    >
                      Always emailed, for your account's security
                    </Typography.Text>
                  )}
                </div>
                <Switch
                  checked={r.mail}
                  disabled={r.locked}
                  loading={saving === r.type}
                  aria-labelledby={`cw-ns-l-${r.type}`}
                  aria-describedby={r.locked ? `cw-ns-n-${r.type}` : undefined}
                  checkedChildren="Email"
                  unCheckedChildren="Off"
                  onChange={(on) => void change(r.type, on)}
                />
              </div>
            ))}
        </section>
      ))}
    </div>
  );
}
