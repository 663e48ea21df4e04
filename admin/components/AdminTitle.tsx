import { Tag } from 'antd';
import type { TitleProps } from '@refinedev/core';
import { Link } from 'react-router';
import { useSession } from '@shared/ui/useSession';

/** Logo and the staff member's role at the top of the side menu. */
export function AdminTitle({ collapsed }: TitleProps) {
  const session = useSession();
  return (
    <Link to="/admin" style={{ display: 'flex', flexDirection: 'column', gap: 6, padding: '8px 0' }}>
      <img
        src={collapsed ? '/logo-mark.svg' : '/logo.svg'}
        alt="Cardwallet"
        height={28}
        style={{ alignSelf: 'flex-start' }}
      />
      {!collapsed && session && (
        <Tag color="blue" style={{ alignSelf: 'flex-start' }}>
          {session.user.role}
        </Tag>
      )}
    </Link>
  );
}
