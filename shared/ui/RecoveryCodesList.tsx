import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import { App, Button, Checkbox, Space } from 'antd';
import { useState } from 'react';

const FILE_NAME = 'cardwallet-recovery-codes.txt';

function fileText(codes: string[], email: string) {
  return [
    `Cardwallet recovery codes for ${email}`,
    '',
    'Each code works once, in place of the code from your authenticator app.',
    'Keep them somewhere safe and private.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/**
 * The codes with copy and download, and a confirmation that they were saved: Continue stays off
 * until then, since these codes are shown only this once.
 */
export function RecoveryCodesList({
  codes,
  email,
  onDone,
  doneLabel = 'Continue',
}: {
  codes: string[];
  email: string;
  onDone(): void;
  doneLabel?: string;
}) {
  const { message } = App.useApp();
  const [saved, setSaved] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      message.success('Recovery codes copied.', 2);
    } catch {
      message.error('Could not copy. Download the codes or write them down instead.');
    }
  }
  function download() {
    const url = URL.createObjectURL(new Blob([fileText(codes, email)], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = FILE_NAME;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
  return (
    <div>
      <ol
        aria-label="Recovery codes"
        data-testid="recovery-codes"
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
          gap: '6px 16px',
          padding: '12px 16px 12px 36px',
          margin: '0 0 12px',
          background: '#f8fafc',
          border: '1px solid #e2e8f0',
          borderRadius: 8,
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
          fontSize: 15,
        }}
      >
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ol>
      <Space wrap style={{ marginBottom: 16 }}>
        <Button icon={<CopyOutlined />} onClick={copy}>
          Copy codes
        </Button>
        <Button icon={<DownloadOutlined />} onClick={download}>
          Download
        </Button>
      </Space>
      <div style={{ marginBottom: 16 }}>
        <Checkbox checked={saved} onChange={(e) => setSaved(e.target.checked)}>
          I have saved my recovery codes somewhere safe
        </Checkbox>
      </div>
      <Button type="primary" block size="large" disabled={!saved} onClick={onDone}>
        {doneLabel}
      </Button>
    </div>
  );
}
