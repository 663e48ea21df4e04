import { Drawer, Tag, Typography } from 'antd';
import type { ApiAuditEntry } from '@shared/contract';
import { Details } from '../../components/Details';
import { dateTime } from '../../format';
import { ACTION_LABELS, ObjectRef } from './columns';

/** One audit entry: who did what to which object, from where, and the request's details in full. */
export function AuditEntryDrawer({ entry, onClose }: { entry: ApiAuditEntry | null; onClose(): void }) {
  const a = entry;
  return (
    <Drawer title="Audit Entry" open={!!a} onClose={onClose} width={Math.min(560, window.innerWidth)} destroyOnHidden>
      {a && (
        <>
          <Details
            label="Audit entry"
            items={[
              ['When', dateTime(a.created_at)],
              ['Who', a.actor_email],
              ['Role', a.actor_role],
              [
                'Actor Id',
                <Typography.Text key="i" className="cw-hash" copyable>
                  {a.actor_id}
                </Typography.Text>,
              ],
              ['Action', `${ACTION_LABELS[a.action] ?? a.action} (${a.action})`],
              ['Object', <ObjectRef key="o" a={a} />],
              [
                'Route',
                <Typography.Text key="r" className="cw-hash">
                  {String(a.details?.route ?? '—')}
                </Typography.Text>,
              ],
              [
                'Status',
                <Tag key="s" color={a.status < 300 ? 'green' : 'red'}>
                  {a.status}
                </Tag>,
              ],
              ['IP Address', a.ip ?? '—'],
              [
                'Entry Id',
                <Typography.Text key="e" className="cw-hash" copyable>
                  {a.id}
                </Typography.Text>,
              ],
            ]}
          />
          <Typography.Title level={5} style={{ marginTop: 24 }}>
            Details
          </Typography.Title>
          <pre
            role="region"
            aria-label="Details as JSON"
            style={{
              background: '#f6f8fa',
              border: '1px solid #e5e7eb',
              borderRadius: 6,
              padding: 12,
              fontSize: 12,
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-word',
              margin: 0,
            }}
          >
            {JSON.stringify(a.details, null, 2)}
          </pre>
        </>
      )}
    </Drawer>
  );
}
