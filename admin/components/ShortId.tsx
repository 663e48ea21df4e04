import { Tooltip, Typography } from 'antd';
import { shortId } from '@shared/ui/wallet/format';

/** A UUID shortened for tables and panels: in full on hover and when copied. */
export function ShortId({ value }: { value: string | null | undefined }) {
  if (!value) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Tooltip title={value}>
      <Typography.Text className="cw-hash" copyable={{ text: value }} style={{ whiteSpace: 'nowrap' }}>
        {shortId(value, 8, 4)}
      </Typography.Text>
    </Tooltip>
  );
}
