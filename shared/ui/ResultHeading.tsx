import type { ReactNode } from 'react';

/** A Result's title as the screen's heading (antd draws it as a plain div), looking the same. */
export function ResultHeading({ children }: { children: ReactNode }) {
  return <h1 style={{ font: 'inherit', color: 'inherit', margin: 0 }}>{children}</h1>;
}
