import { DeleteOutlined, FileImageOutlined, FilePdfOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Flex, Typography, Upload } from 'antd';
import type { Rule } from 'antd/es/form';
import { formatSize } from '@shared/ui/fileSize';
import { useIsPhone } from '@shared/ui/wallet';

const ACCEPT = '.jpg,.jpeg,.png,.pdf';
const MAX_FILE_BYTES = 5 * 1024 * 1024;
const TOO_LARGE = 'The file is larger than 5 MB';
const WRONG_TYPE = 'Upload a JPEG, PNG or PDF file';

const TYPES = new Set(['image/jpeg', 'image/png', 'application/pdf']);
const isAllowed = (f: File) => /\.(jpe?g|png|pdf)$/i.test(f.name) && (!f.type || TYPES.has(f.type));

/** The rules of a document field: required (with its message) or not, and never over 5 MB. */
export function fileRules(required: string | null): Rule[] {
  return [
    ...(required ? [{ required: true, message: required }] : []),
    {
      validator: async (_: unknown, f?: File) => {
        if (!f) return;
        if (f.size > MAX_FILE_BYTES) throw new Error(TOO_LARGE);
        if (!isAllowed(f)) throw new Error(WRONG_TYPE);
      },
    },
  ];
}

/**
 * One document, chosen by click or drop (JPEG, PNG or PDF): shows its name and size and can be
 * removed. The server checks the content again; what it says lands on the field.
 */
export function FileField({
  id,
  value,
  onChange,
  disabled,
}: {
  id?: string;
  value?: File;
  onChange?: (f: File | undefined) => void;
  disabled?: boolean;
}) {
  const phone = useIsPhone();
  const Icon =
    value?.type === 'application/pdf' || /\.pdf$/i.test(value?.name ?? '') ? FilePdfOutlined : FileImageOutlined;
  // Remove sits beside the drop zone, not inside it: a button inside a button is not reachable as itself.
  return (
    <div style={{ position: 'relative' }}>
      <Upload.Dragger
        id={id}
        accept={ACCEPT}
        multiple={false}
        showUploadList={false}
        disabled={disabled}
        beforeUpload={(file) => {
          onChange?.(file);
          return false;
        }}
      >
        {value ? (
          <Flex align="center" gap={12} style={{ textAlign: 'left' }}>
            <Icon style={{ fontSize: 28, color: '#1d4ed8' }} />
            <div style={{ minWidth: 0, flex: 1, marginRight: disabled ? 0 : 40 }}>
              <Typography.Text strong ellipsis style={{ display: 'block' }}>
                {value.name}
              </Typography.Text>
              <Typography.Text type="secondary">
                {formatSize(value.size)} · {phone ? 'Tap to replace' : 'Click or drop to replace'}
              </Typography.Text>
            </div>
          </Flex>
        ) : (
          <Flex align="center" gap={12} style={{ textAlign: 'left', minHeight: 44 }}>
            <UploadOutlined style={{ fontSize: 24, color: '#1d4ed8' }} />
            <div>
              <Typography.Text strong style={{ display: 'block' }}>
                {phone ? 'Tap to choose a file' : 'Click or drag a file here'}
              </Typography.Text>
              <Typography.Text type="secondary">JPEG, PNG or PDF, up to 5 MB</Typography.Text>
            </div>
          </Flex>
        )}
      </Upload.Dragger>
      {value && !disabled && (
        <Button
          type="text"
          danger
          icon={<DeleteOutlined />}
          aria-label={`Remove ${value.name}`}
          title="Remove"
          onClick={() => onChange?.(undefined)}
          style={{ position: 'absolute', right: 16, top: '50%', transform: 'translateY(-50%)' }}
        />
      )}
    </div>
  );
}
