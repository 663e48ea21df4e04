import { Button, Result } from 'antd';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** The router's fallback when a screen fails to render or load. */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : undefined;
  return (
    <Result
      status="error"
      title="Unexpected Application Error!"
      subTitle={detail}
      extra={
        <Button type="primary" onClick={() => window.location.assign('/')}>
          Back to Home
        </Button>
      }
    />
  );
}
