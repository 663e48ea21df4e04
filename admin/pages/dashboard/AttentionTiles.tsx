import {
  AlertOutlined,
  BankOutlined,
  BlockOutlined,
  CheckSquareOutlined,
  DownloadOutlined,
  ExceptionOutlined,
  FlagOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { z } from 'zod';
import { apiData } from '@shared/api/client';
import { messageOf } from '@shared/api/errors';
import type { attention } from '@shared/contract/responses';

type Attention = z.infer<typeof attention>;

/** A list's address with its filter applied, in the form Refine's synced tables read (syncWithLocation). */
function filteredList(path: string, filters: Record<string, string>): string {
  const q = new URLSearchParams();
  Object.entries(filters).forEach(([field, value], i) => {
    q.set(`filters[${i}][field]`, field);
    q.set(`filters[${i}][operator]`, 'eq');
    q.set(`filters[${i}][value]`, value);
  });
  const query = q.toString();
  return query ? `${path}?${query}` : path;
}

const TILES: Array<{ key: keyof Attention; label: string; icon: ReactNode; to: string }> = [
  {
    key: 'verifications_individuals',
    label: 'Individual verifications waiting',
    icon: <UserOutlined />,
    to: filteredList('/admin/verifications-individuals', { state: 'pending' }),
  },
  {
    key: 'verifications_companies',
    label: 'Company verifications waiting',
    icon: <BankOutlined />,
    to: filteredList('/admin/verifications-companies', { state: 'pending' }),
  },
  {
    key: 'topups_to_decide',
    label: 'Top-ups to decide',
    icon: <DownloadOutlined />,
    to: filteredList('/admin/wallet-loads', { ready: 'true' }),
  },
  {
    key: 'chain_deposits_unassigned',
    label: 'Chain deposits unassigned',
    icon: <BlockOutlined />,
    to: filteredList('/admin/chain-deposits', { status: 'Unassigned' }),
  },
  { key: 'flagged_cards', label: 'Flagged cards', icon: <FlagOutlined />, to: '/admin/cards/flagged' },
  {
    key: 'reconciliation_drift',
    label: 'Reconciliation drift',
    icon: <AlertOutlined />,
    to: '/admin/reconciliation',
  },
  // The Approvals list opens on the pending requests.
  { key: 'approvals_pending', label: 'Approvals waiting', icon: <CheckSquareOutlined />, to: '/admin/approvals' },
  {
    key: 'disputes_to_send',
    label: 'Disputes to send',
    icon: <ExceptionOutlined />,
    to: filteredList('/admin/disputes', { state: 'submitted' }),
  },
];

/**
 * "Needs attention": what waits for staff, each count a link to its list with the filter applied. The server
 * answers only the counts the role may see, and only those get a tile.
 */
export function AttentionTiles() {
  const q = useQuery({
    queryKey: ['admin', 'attention'],
    queryFn: () => apiData<Attention>('GET', '/admin/attention', { silent: true }),
  });
  if (q.error)
    return <Alert type="error" showIcon message={messageOf(q.error, 'Could not load what needs attention.')} />;
  return (
    <section aria-labelledby="attention-title">
      <h2 id="attention-title" className="cw-attention-title">
        Needs attention
      </h2>
      <ul className="cw-attention">
        {q.isPending
          ? TILES.map((t) => (
              <li key={t.key} className="cw-attention-tile">
                <Skeleton active title={false} paragraph={{ rows: 2 }} />
              </li>
            ))
          : TILES.filter((t) => q.data?.[t.key] !== undefined).map((t) => {
              const n = q.data![t.key]!;
              return (
                <li key={t.key}>
                  <Link
                    to={t.to}
                    className={`cw-attention-tile${n > 0 ? ' cw-attention-due' : ''}`}
                    data-testid={`attention-${t.key}`}
                    aria-label={`${t.label}: ${n}`}
                  >
                    <span className="cw-attention-icon" aria-hidden>
                      {t.icon}
                    </span>
                    <span className="cw-attention-count">{n.toLocaleString('en-US')}</span>
                    <span className="cw-attention-label">{t.label}</span>
                  </Link>
                </li>
              );
            })}
      </ul>
    </section>
  );
}
