import { Button, Result } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useSession } from '@shared/ui/useSession';
import { isSuperAdmin } from '../resources';
import { ResultHeading } from '@shared/ui/ResultHeading';

/** Screens only a Super-Admin may use (fees, momo settings): a 403 page for anyone else. */
export function SuperAdminOnly({ children }: { children: ReactNode }) {
  const session = useSession();
  if (isSuperAdmin(session?.user.role)) return <>{children}</>;
  return (
    <Result
      status="403"
      title={<ResultHeading>403</ResultHeading>}
      subTitle="Sorry, only a Super-Admin can use this page."
      extra={
        <Link to="/admin">
          <Button type="primary">Back to the dashboard</Button>
        </Link>
      }
    />
  );
}
