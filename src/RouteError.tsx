import { Button } from 'antd';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Failure } from '@shared/ui/Failure';

/** The router's fallback when a screen fails to render or load. */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : undefined;
  return (
    <Failure
      title={<h1 style={{ font: 'inherit', margin: 0 }}>Unexpected Application Error!</h1>}
      subTitle={detail}
      extra={
        <Button type="primary" onClick={() => window.location.assign('/')}>
          Back to Home
        </Button>
      }
    />
  );
}
