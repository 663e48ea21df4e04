import type { ReactNode } from 'react';

/**
 * A Result's title as a heading (antd draws it as a plain div), looking the same: the screen's h1,
 * or an h2 under a page title.
 */
export function ResultHeading({ children, level = 1 }: { children: ReactNode; level?: 1 | 2 }) {
  const Tag = `h${level}` as const;
  return <Tag style={{ font: 'inherit', color: 'inherit', margin: 0 }}>{children}</Tag>;
}
