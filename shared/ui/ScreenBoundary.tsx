import { QueryClientContext } from '@tanstack/react-query';
import { Button } from 'antd';
import { Component, type ErrorInfo, type ReactNode, useContext } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Failure } from './Failure';
import { Muted } from './Type';

interface BoundaryProps {
  children: ReactNode;
  /** a new value (a navigation) clears a failure, so the next screen gets its chance */
  resetKey: unknown;
  fallback(error: Error, retry: () => void): ReactNode;
}

interface BoundaryState {
  error: Error | null;
  key: unknown;
}

/**
 * Catches what the screens below it throw while rendering. The key is kept in state (not used as a
 * React key) so that navigating within a working screen, e.g. a list's filters in the query string,
 * never remounts it.
 */
class Boundary extends Component<BoundaryProps, BoundaryState> {
  state: BoundaryState = { error: null, key: this.props.resetKey };

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.resetKey === state.key ? null : { key: props.resetKey, error: null };
  }

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('screen failed', error, info.componentStack);
  }

  retry = () => this.setState({ error: null });

  render() {
    return this.state.error ? this.props.fallback(this.state.error, this.retry) : this.props.children;
  }
}

function ScreenError({ error, retry, home }: { error: Error; retry(): void; home: string }) {
  const navigate = useNavigate();
  // Not every tree has a query client (the hook would throw here, inside the fallback).
  const queries = useContext(QueryClientContext);
  // react-router numbers the entries of its history: 0 is the first page of this tab.
  const canGoBack = ((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0;
  return (
    <div role="alert">
      <Failure
        title={<h1 style={{ font: 'inherit', margin: 0 }}>This screen could not be shown</h1>}
        subTitle="Something went wrong while showing it. The rest of the app still works: try again, or go back."
        extra={[
          <Button
            key="retry"
            type="primary"
            onClick={() => {
              // The failed screen's data is no longer watched: fetch it afresh rather than show the same again.
              queries?.removeQueries({ type: 'inactive' });
              retry();
            }}
          >
            Try again
          </Button>,
          <Button key="back" onClick={() => (canGoBack ? navigate(-1) : navigate(home))}>
            Go back
          </Button>,
        ]}
      >
        <Muted style={{ fontSize: 12, wordBreak: 'break-word' }}>Details: {error.message}</Muted>
      </Failure>
    </div>
  );
}

/**
 * Where a layout shows its screens: a screen (or a panel it opens) that fails shows an error in its
 * place, with Try again and Go back, while the layout's header and menu keep working. Any
 * navigation clears the failure.
 */
export function ScreenBoundary({ children, home }: { children: ReactNode; home: string }) {
  const location = useLocation();
  return (
    <Boundary
      resetKey={location.key}
      fallback={(error, retry) => <ScreenError error={error} retry={retry} home={home} />}
    >
      {children}
    </Boundary>
  );
}
