import { Button, Result } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { type Permission, can } from '@shared/contract';
import { useSession } from '@shared/ui/useSession';
import { ResultHeading } from '@shared/ui/ResultHeading';

/** Whether the signed-in staff member's role holds any of these permissions (shared/contract/permissions.ts). */
export function useCan(...permissions: Permission[]): boolean {
  const role = useSession()?.user.role;
  return permissions.some((p) => can(role, p));
}

/** A screen the role may not use: the 403 page (the server refuses its calls too). */
export function Allowed({ to, children }: { to: Permission | readonly Permission[]; children: ReactNode }) {
  const allowed = useCan(...[to].flat());
  if (allowed) return <>{children}</>;
  return (
    <Result
      status="403"
      title={<ResultHeading>403</ResultHeading>}
      subTitle="Sorry, your role does not give access to this page."
      extra={
        <Link to="/admin">
          <Button type="primary">Back to the dashboard</Button>
        </Link>
      }
    />
  );
}
