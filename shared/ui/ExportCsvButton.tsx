import { DownloadOutlined } from '@ant-design/icons';
import { App, Button, type ButtonProps } from 'antd';
import { useState } from 'react';
import { type Query, apiDownload } from '../api/client';
import { messageOf } from '../api/errors';

export interface ExportCsvButtonProps {
  /** the list's API path, e.g. '/reports/view-wallet-topups' */
  path: string;
  /** the list's active filters, exactly as the table sends them (paging is dropped) */
  query?: Query;
  /** file name when the server suggests none (without .csv) */
  filename?: string;
  disabled?: boolean;
  size?: ButtonProps['size'];
  block?: boolean;
  label?: string;
}

const PAGING = new Set(['page', 'per_page', 'format']);

/** The export URL's query: the table's filters without its paging, plus format=csv. */
function csvQuery(query: Query = {}): Query {
  const q: Query = {};
  for (const [k, v] of Object.entries(query)) if (!PAGING.has(k)) q[k] = v;
  return { ...q, format: 'csv' };
}

/** Saves a blob under a name, as a click on a download link would. */
export function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/**
 * "Export CSV" for a report or list: the same call as the table with the same filters and
 * format=csv, fetched with the signed-in user's token (a plain link would carry none) and saved
 * as a file. The server streams the whole filtered set, not just the page on screen.
 */
export function ExportCsvButton({
  path,
  query,
  filename = 'export',
  disabled,
  size,
  block,
  label = 'Export CSV',
}: ExportCsvButtonProps) {
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  async function run() {
    setBusy(true);
    try {
      const { blob, filename: suggested } = await apiDownload(path, csvQuery(query));
      saveBlob(blob, suggested ?? `${filename}.csv`);
    } catch (e) {
      message.error(messageOf(e, 'The export failed. Please try again.'));
    } finally {
      setBusy(false);
    }
  }
  return (
    // A short label (phones) keeps the full name for assistive technology; it contains the visible text.
    <Button
      icon={<DownloadOutlined />}
      onClick={() => void run()}
      loading={busy}
      disabled={disabled}
      size={size}
      block={block}
      aria-label={label === 'Export CSV' ? undefined : 'Export CSV'}
    >
      {label}
    </Button>
  );
}
