import { FilePdfOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import { useState } from 'react';
import { apiDownload } from '../../api/client';
import { messageOf } from '../../api/errors';
import { saveBlob } from '../ExportCsvButton';
import type { DayRange } from './DateRangeFilter';

export interface StatementButtonProps {
  /** the master wallet the statement is of */
  walletId: string;
  /** the range picked on the screen; a statement covers exactly these days (UTC) */
  range: DayRange;
  /** called instead of downloading when no complete range is picked (the screen asks for one) */
  onNeedRange(): void;
  block?: boolean;
}

/**
 * "Download statement": the wallet's PDF statement for the picked days, fetched with the
 * signed-in user's token (a plain link would carry none) and saved as the server names it.
 * It covers every movement of the wallet in those days, whatever the type filter shows.
 */
export function StatementButton({ walletId, range, onNeedRange, block }: StatementButtonProps) {
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  async function run() {
    if (!range.from || !range.to) return onNeedRange();
    const start = range.from.format('YYYY-MM-DD');
    const end = range.to.format('YYYY-MM-DD');
    setBusy(true);
    try {
      const { blob, filename } = await apiDownload(
        '/reports/wallet-statement',
        { wallet: walletId, start_date: start, end_date: end },
        undefined,
        'application/pdf',
      );
      saveBlob(blob, filename ?? `wallet-statement-${start}-to-${end}.pdf`);
    } catch (e) {
      message.error(messageOf(e, 'The statement could not be made. Please try again.'));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button icon={<FilePdfOutlined />} onClick={() => void run()} loading={busy} block={block}>
      Download statement
    </Button>
  );
}
