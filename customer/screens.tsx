import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';

/**
 * A screen loaded when it is first shown: the login screen must not wait for the portal's screens
 * (cards, charts, phone numbers), which a visitor who only logs in never needs.
 */
export function screen<M>(
  load: () => Promise<M>,
  pick: (m: M) => ComponentType,
  // The spinner is plain CSS (src/boot.css): antd's Spin would weigh on the first load.
  fallback: ReactNode = <div className="cw-spinner" role="status" aria-label="Loading" />,
) {
  const Lazy = lazy(async () => ({ default: pick(await load()) }));
  // biome-ignore lint/correctness/noComponentHookFactories: made once per route at module level, never inside a render
  return function Screen() {
    return (
      <Suspense fallback={fallback}>
        <Lazy />
      </Suspense>
    );
  };
}
