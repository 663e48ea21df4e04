import { Flex, Tag } from 'antd';
import type { ApiCard } from '../../contract';
import { cardBadges } from '../../vocabulary';

const TONE_COLOR = { ok: 'green', bad: 'red', warn: 'orange', muted: 'default' } as const;

/**
 * A card's state badge: green Active, red otherwise (Deactivated, Deleted); a flagged or suspended
 * card adds a red Flagged or orange Suspended badge and its Active turns grey: it refuses payments.
 */
export function StatusTag({
  card,
}: {
  card: Pick<ApiCard, 'state' | 'is_deleted'> & Partial<Pick<ApiCard, 'flagged' | 'suspended'>>;
}) {
  const badges = cardBadges(card);
  return (
    <Flex gap={4} wrap="wrap" data-testid="card-state">
      {badges.map((b) => (
        <Tag key={b.text} color={TONE_COLOR[b.tone]} style={{ marginInlineEnd: 0 }}>
          {b.text}
        </Tag>
      ))}
    </Flex>
  );
}
