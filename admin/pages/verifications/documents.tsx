import { DownloadOutlined, ExportOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex, Image, Skeleton, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { API_BASE } from '@shared/api/client';
import { ApiError, NETWORK_ERROR } from '@shared/api/errors';
import { getSession } from '@shared/api/session';
import type { ApiDocument } from '@shared/contract';
import { formatSize } from '@shared/ui/fileSize';
import { useIsPhone } from '@shared/ui/wallet/useIsPhone';

/** What each uploaded file is, as the customer's form calls it. */
const DOCUMENT_LABELS: Record<string, string> = {
  address_proof: 'Address proof',
  selfie_image: 'Selfie with Id',
  incorporation_certificate: 'Incorporation certificate',
  shareholder_passport: 'Shareholder passport',
  license: 'License',
};
export const documentLabel = (field: string) => DOCUMENT_LABELS[field] ?? field.replace(/_/g, ' ');

const PREVIEWABLE = new Set(['image/png', 'image/jpeg', 'application/pdf']);

/**
 * A stored document, fetched with the staff member's token into a blob (the API serves files
 * only as attachments): images inline, PDFs in the page, both downloadable. The object URL is
 * revoked when the viewer goes away.
 */
function useDocumentBlob(doc: ApiDocument) {
  const [state, setState] = useState<{ url?: string; error?: string }>({});
  useEffect(() => {
    const ctl = new AbortController();
    let url: string | undefined;
    (async () => {
      try {
        const token = getSession()?.token;
        const res = await fetch(`${API_BASE}/files/${encodeURIComponent(doc.id)}`, {
          headers: token ? { authorization: `Bearer ${token}` } : {},
          signal: ctl.signal,
        });
        if (!res.ok) {
          const body = (await res.json().catch(() => null)) as { message?: string } | null;
          throw new ApiError(res.status, body, 'The document could not be loaded.');
        }
        // The type the server checked at upload, so the browser shows a PDF as a PDF.
        const type = PREVIEWABLE.has(doc.content_type) ? doc.content_type : 'application/octet-stream';
        const blob = new Blob([await res.arrayBuffer()], { type });
        url = URL.createObjectURL(blob);
        setState({ url });
      } catch (e) {
        if ((e as Error).name === 'AbortError') return;
        setState({ error: e instanceof ApiError ? e.display : NETWORK_ERROR });
      }
    })();
    return () => {
      ctl.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [doc.id, doc.content_type]);
  return state;
}

export function DocumentViewer({ doc }: { doc: ApiDocument }) {
  const { url, error } = useDocumentBlob(doc);
  const phone = useIsPhone();
  const label = documentLabel(doc.field);
  const isImage = doc.content_type.startsWith('image/');
  const isPdf = doc.content_type === 'application/pdf';
  return (
    <Card
      size="small"
      title={label}
      data-testid={`document-${doc.field}`}
      extra={
        <Flex gap={4}>
          {isPdf && (
            <Button
              size="small"
              type="text"
              icon={<ExportOutlined />}
              href={url}
              target="_blank"
              disabled={!url}
              aria-label={`Open ${label} in a new tab`}
            />
          )}
          <Button
            size="small"
            icon={<DownloadOutlined />}
            href={url}
            download={doc.name}
            disabled={!url}
            aria-label={`Download ${label}`}
          >
            {phone ? null : 'Download'}
          </Button>
        </Flex>
      }
    >
      <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 8, wordBreak: 'break-all' }}>
        {doc.name} · {doc.content_type} · {formatSize(doc.size)}
      </Typography.Text>
      {error ? (
        <Alert type="error" showIcon message={error} role="alert" />
      ) : !url ? (
        <Skeleton.Image active style={{ width: '100%', height: 200 }} />
      ) : isImage ? (
        <Flex justify="center" style={{ background: '#f5f5f5', borderRadius: 6, padding: 8 }}>
          <Image
            src={url}
            alt={`${label}: ${doc.name}`}
            style={{ maxHeight: phone ? 280 : 420, maxWidth: '100%', objectFit: 'contain' }}
          />
        </Flex>
      ) : isPdf ? (
        <iframe
          src={url}
          title={`${label}: ${doc.name}`}
          style={{ width: '100%', height: phone ? 420 : 560, border: '1px solid #f0f0f0', borderRadius: 6 }}
        />
      ) : (
        <Typography.Text>This file cannot be shown here; download it to open it.</Typography.Text>
      )}
    </Card>
  );
}
