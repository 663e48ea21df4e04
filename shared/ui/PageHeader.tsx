import { Flex, Typography } from 'antd';
import type { ReactNode } from 'react';

/** A screen's title: its one h1 (drawn at the size of antd's level 3), what it is about, its actions. */
export function PageHeader({ title, subtitle, extra }: { title: ReactNode; subtitle?: ReactNode; extra?: ReactNode }) {
  return (
    <Flex justify="space-between" align="flex-start" gap={12} wrap style={{ marginBottom: 16 }}>
      <div>
        <Typography.Title level={1} className="cw-page-title">
          {title}
        </Typography.Title>
        {subtitle ? <Typography.Text type="secondary">{subtitle}</Typography.Text> : null}
      </div>
      {extra ? (
        <Flex gap={8} wrap>
          {extra}
        </Flex>
      ) : null}
    </Flex>
  );
}
