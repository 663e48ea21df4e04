import { ArrowLeftOutlined } from '@ant-design/icons';
import { useOne } from '@refinedev/core';
import { Alert, Button, Card, Col, Flex, List, Result, Row, Skeleton, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '@shared/api/errors';
import type { ApiVerificationDetail } from '@shared/contract';
import { PageHeader } from '@shared/ui/PageHeader';
import { Details } from '../../components/Details';
import { dateTime } from '../../format';
import { ShortId } from '../../components/ShortId';
import { AccountStateTag, KINDS, type Kind, VerificationStateTag } from './columns';
import { DecisionButtons } from './decide';
import { DocumentViewer } from './documents';
import { submittedFields } from './fields';
import { ResultHeading } from '@shared/ui/ResultHeading';
import { useCan } from '../../components/Allowed';

/**
 * /admin/verifications-individuals/{id} (and -companies): a submission as the customer sent it,
 * every field and document, the account's state and history of submissions, and, while it is
 * pending, Approve and Disapprove.
 */
export default function VerificationShow({ kind }: { kind: Kind }) {
  const mayDecide = useCan('verification.review');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { query, result: d } = useOne<ApiVerificationDetail>({
    resource: KINDS[kind].resource,
    id,
    meta: { path: 'verification/details' },
    queryOptions: { retry: false },
  });
  const k = KINDS[d?.account_type ?? kind];
  const listPath = `/admin/${KINDS[kind].resource}`;
  // Back to the list as it was left (filters, page) when we came from it.
  const back = () => ((window.history.state as { idx?: number } | null)?.idx ? navigate(-1) : navigate(listPath));
  const backButton = (
    <Button icon={<ArrowLeftOutlined />} onClick={back}>
      Back
    </Button>
  );

  if (query.isLoading) {
    return (
      <>
        <PageHeader title={KINDS[kind].title} extra={backButton} />
        <Card>
          <Skeleton active paragraph={{ rows: 8 }} />
        </Card>
      </>
    );
  }
  if (!d) {
    const e = query.error as unknown;
    return (
      <Result
        status={e instanceof ApiError && e.statusCode === 404 ? '404' : 'error'}
        title={
          <ResultHeading>
            {e instanceof ApiError && e.statusCode === 404
              ? 'Verification not found'
              : 'The verification could not be loaded'}
          </ResultHeading>
        }
        subTitle={e instanceof ApiError ? e.display : undefined}
        extra={backButton}
      />
    );
  }

  const pending = d.state === 'pending';
  const summary: Array<[string, ReactNode]> = [
    ['Name', d.name || '—'],
    ['Email', d.email || '—'],
    ['Account Type', k.accountType],
    ['Account State', <AccountStateTag key="a" state={d.verification_state} />],
    ['Submission State', <VerificationStateTag key="s" state={d.state} />],
    ...(d.reason
      ? ([
          [
            'Reason',
            <Typography.Text key="r" type="danger">
              {d.reason}
            </Typography.Text>,
          ],
        ] as Array<[string, ReactNode]>)
      : []),
    ['Submitted', dateTime(d.created_at)],
    ['Decided By', d.decided_by ?? '—'],
    ['Decided At', d.decided_at ? dateTime(d.decided_at) : '—'],
    ['Verification Id', <ShortId key="v" value={d.id} />],
    ['Account Id', <ShortId key="i" value={d.account_id} />],
  ];

  return (
    <>
      <PageHeader
        title={`${d.name} - ${k.term} Verification`}
        subtitle={
          pending
            ? `This ${k.term} is waiting for a decision.`
            : `This ${k.term} was ${d.state}${d.decided_by ? ` by ${d.decided_by}` : ''}.`
        }
        extra={
          <>
            {backButton}
            {pending && mayDecide && (
              <DecisionButtons id={d.id} name={d.name} term={k.term} onDecided={() => void query.refetch()} />
            )}
          </>
        }
      />
      {d.state === 'rejected' && d.reason && (
        <Alert type="error" showIcon message="Disapproved" description={d.reason} style={{ marginBottom: 16 }} />
      )}
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={10}>
          <Flex vertical gap={16}>
            <Card size="small" title="Summary">
              <Details label="Summary" items={summary} />
            </Card>
            <Card size="small" title="Submitted Fields">
              <Details label="Submitted fields" items={submittedFields(d)} />
            </Card>
            <Card size="small" title="Submission History">
              <List
                size="small"
                dataSource={d.history}
                renderItem={(h) => (
                  <List.Item>
                    <Flex vertical gap={2} style={{ minWidth: 0, width: '100%' }}>
                      <Flex gap={8} align="center" wrap>
                        <VerificationStateTag state={h.state} />
                        <Typography.Text>{dateTime(h.created_at)}</Typography.Text>
                        <span style={{ marginInlineStart: 'auto' }}>
                          {h.id === d.id ? (
                            <Tag bordered={false}>This submission</Tag>
                          ) : (
                            <Link to={`/admin/${k.resource}/${h.id}`}>Open</Link>
                          )}
                        </span>
                      </Flex>
                      {h.reason && <Typography.Text type="secondary">{h.reason}</Typography.Text>}
                    </Flex>
                  </List.Item>
                )}
              />
            </Card>
          </Flex>
        </Col>
        <Col xs={24} lg={14}>
          <Flex vertical gap={16}>
            <Typography.Title level={5} style={{ margin: 0 }}>
              Documents ({d.documents.length})
            </Typography.Title>
            {d.documents.length === 0 && (
              <Typography.Text type="secondary">No documents were uploaded.</Typography.Text>
            )}
            {d.documents.map((doc) => (
              <div key={doc.id} id={`document-${doc.field}`}>
                <DocumentViewer doc={doc} />
              </div>
            ))}
          </Flex>
        </Col>
      </Row>
    </>
  );
}
