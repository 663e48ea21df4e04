import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Skeleton, Typography } from 'antd';
import { useEffect } from 'react';
import { apiData } from '@shared/api/client';
import type { ApiProgramControls } from '@shared/contract';
import { CountrySelect, MerchantCategorySelect } from '@shared/ui/cards';
import { clearErrorsOnChange, sayFailure } from '@shared/ui/forms';
import { PageHeader } from '@shared/ui/PageHeader';
import { useSession } from '@shared/ui/useSession';
import { useSubmit } from '@shared/ui/useSubmit';
import { dateTime } from '@shared/ui/wallet/format';
import { isSuperAdmin } from '../../resources';

type ProgramForm = { blocked_categories: string[]; blocked_countries: string[] };
const KEY = ['program-controls'];

/**
 * /admin/program-controls: what no card may pay, checked before each card's own controls (issue 32).
 * Every staff member reads it (it explains a program_blocked decline); a Super-Admin changes it.
 */
export default function ProgramControls() {
  const [form] = Form.useForm<ProgramForm>();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const session = useSession();
  const canEdit = isSuperAdmin(session?.user.role);
  const { busy, submit } = useSubmit();
  const query = useQuery({
    queryKey: KEY,
    queryFn: () => apiData<ApiProgramControls>('GET', '/program/controls', { silent: true }),
  });

  useEffect(() => {
    if (query.data)
      form.setFieldsValue({
        blocked_categories: query.data.blocked_categories,
        blocked_countries: query.data.blocked_countries,
      });
  }, [query.data, form]);

  async function save(v: ProgramForm) {
    const body = { blocked_categories: v.blocked_categories ?? [], blocked_countries: v.blocked_countries ?? [] };
    const r = await submit((key) =>
      apiData<ApiProgramControls>('PUT', '/program/controls', { body, idempotencyKey: key, silent: true }),
    );
    if (!r.ok) {
      sayFailure(
        form,
        r.error,
        (text) => message.error(text, 4),
        'The program controls were not saved. Please try again.',
      );
      return;
    }
    qc.setQueryData(KEY, r.data);
    message.success('Program controls saved.', 2);
  }

  return (
    <>
      <PageHeader
        title="Program Controls"
        subtitle="Merchant categories and countries no card may pay, whatever its own controls say."
      />
      <Card style={{ maxWidth: 880 }}>
        {query.isLoading ? (
          <Skeleton active />
        ) : query.error ? (
          <Alert type="error" showIcon message="Could not load the program controls." />
        ) : (
          <Form
            noValidate
            form={form}
            layout="vertical"
            requiredMark={false}
            onFinish={save}
            onValuesChange={clearErrorsOnChange(form)}
            disabled={!canEdit}
            aria-label="Program Controls"
          >
            {!canEdit && (
              <Alert
                type="info"
                showIcon
                style={{ marginBottom: 16 }}
                message="Only a Super-Admin can change the program controls."
              />
            )}
            <Form.Item
              name="blocked_categories"
              label="Blocked merchant categories"
              extra="Declined on every card with the code program_blocked."
            >
              <MerchantCategorySelect />
            </Form.Item>
            <Form.Item name="blocked_countries" label="Blocked countries">
              <CountrySelect />
            </Form.Item>
            {query.data?.updated_at && (
              <Typography.Paragraph type="secondary">
                Last changed {dateTime(query.data.updated_at)}
              </Typography.Paragraph>
            )}
            {canEdit && (
              <Button type="primary" htmlType="submit" loading={busy}>
                Save Changes
              </Button>
            )}
          </Form>
        )}
      </Card>
    </>
  );
}
