import { Tag } from 'antd';
import type { ApiCard } from '../../contract';

/** 'Active' is a green badge, any other state a red one. */
export function StatusTag({ card }: { card: Pick<ApiCard, 'state' | 'is_deleted'> }) {
  const text = card.is_deleted ? 'Deleted' : card.state;
  return (
    <Tag color={text === 'Active' ? 'green' : 'red'} style={{ marginInlineEnd: 0 }}>
      {text}
    </Tag>
  );
}
