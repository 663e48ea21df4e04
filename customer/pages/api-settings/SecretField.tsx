import { CopyOutlined, EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { App, Button, Input, Skeleton, Space, Tooltip, Typography } from 'antd';
import { useId, useState } from 'react';

/** Writes to the clipboard; the old execCommand way where the async API is not allowed. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const done = document.execCommand('copy');
    area.remove();
    return done;
  }
}

function CopyButton({ text, label, disabled }: { text: string | null | undefined; label: string; disabled?: boolean }) {
  const { message } = App.useApp();
  return (
    <Tooltip title={`Copy ${label}`}>
      <Button
        icon={<CopyOutlined />}
        aria-label={`Copy ${label}`}
        disabled={disabled || !text}
        onClick={async () => {
          if (!text) return;
          if (await copyText(text)) message.success(`${label} copied`, 2);
          else message.error(`Could not copy the ${label}. Select it and copy it by hand.`, 4);
        }}
      />
    </Tooltip>
  );
}

interface Props {
  label: string;
  value: string | null | undefined;
  loading?: boolean;
  /** what the empty field says (no credentials yet, or a secret hidden for good) */
  placeholder?: string;
  /** masked until revealed (the signing secret) */
  maskable?: boolean;
  hint?: React.ReactNode;
}

/** A read-only value with its label, a copy button and a skeleton while it loads. */
export function SecretField({ label, value, loading, placeholder, maskable, hint }: Props) {
  const id = useId();
  const [shown, setShown] = useState(false);
  const masked = maskable && !shown && !!value;
  const display = masked ? `${value!.slice(0, 6)}${'•'.repeat(24)}` : (value ?? '');
  return (
    <div style={{ marginBottom: 16 }}>
      <label htmlFor={id} style={{ display: 'block', fontWeight: 500, marginBottom: 6 }}>
        {label}
      </label>
      {loading ? (
        <Skeleton.Input active block style={{ height: 32 }} data-testid={`${label}-skeleton`} />
      ) : (
        <Space.Compact style={{ width: '100%' }}>
          <Input
            id={id}
            readOnly
            value={display}
            placeholder={placeholder}
            style={{
              fontFamily: value ? 'ui-monospace, SFMono-Regular, Menlo, monospace' : undefined,
              fontSize: value ? 13 : undefined,
            }}
            aria-describedby={hint ? `${id}-hint` : undefined}
          />
          {maskable && (
            <Tooltip title={shown ? `Hide ${label}` : `Reveal ${label}`}>
              <Button
                icon={shown ? <EyeInvisibleOutlined /> : <EyeOutlined />}
                aria-label={shown ? `Hide ${label}` : `Reveal ${label}`}
                aria-pressed={shown}
                disabled={!value}
                onClick={() => setShown((s) => !s)}
              />
            </Tooltip>
          )}
          <CopyButton text={value} label={label} />
        </Space.Compact>
      )}
      {hint && !loading && (
        <Typography.Text id={`${id}-hint`} type="secondary" style={{ display: 'block', marginTop: 4, fontSize: 13 }}>
          {hint}
        </Typography.Text>
      )}
    </div>
  );
}
