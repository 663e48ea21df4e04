import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Flex, Form, Skeleton, Switch, Tag, Typography } from 'antd';
import { useEffect } from 'react';
import { apiData } from '@shared/api/client';
import type { ApiProgramControls } from '@shared/contract';
import { categoryLabel, countryName } from '@shared/merchant-categories';
import { CountrySelect, MerchantCategorySelect } from '@shared/ui/cards';
import { clearErrorsOnChange, sayFailure } from '@shared/ui/forms';
import { PageHeader } from '@shared/ui/PageHeader';
import { useSubmit } from '@shared/ui/useSubmit';
import { dateTime } from '@shared/ui/wallet/format';
import { useCan } from '../../components/Allowed';

/** An Admin reads the lists (a disabled form would be hard to read) and is told who may change them. */
function ReadOnly({ controls }: { controls: ApiProgramControls }) {
  const tags = (list: string[], name: (v: string) => string) =>
    list.length ? (
      <Flex wrap gap={6}>
        {list.map((v) => (
          <Tag key={v} style={{ marginInlineEnd: 0 }}>
            {name(v)}
          </Tag>
        ))}
      </Flex>
    ) : (
      <Typography.Text type="secondary">None</Typography.Text>
    );
  return (
    <Flex vertical gap={16} data-testid="program-controls">
      <Alert type="info" showIcon message="Only a Super-Admin can change the program controls." />
      <div>
        <Typography.Title level={2} style={{ fontSize: 16 }}>
          Blocked merchant categories
        </Typography.Title>
        {tags(controls.blocked_categories, categoryLabel)}
      </div>
      <div>
        <Typography.Title level={2} style={{ fontSize: 16 }}>
          Blocked countries
        </Typography.Title>
        {tags(controls.blocked_countries, countryName)}
      </div>
      <div>
        <Typography.Title level={2} style={{ fontSize: 16 }}>
          Provisional credit on disputes
        </Typography.Title>
        <Typography.Text data-testid="provisional-credit">{controls.provisional_credit ? 'On' : 'Off'}</Typography.Text>
      </div>
      {controls.updated_at && (
        <Typography.Text type="secondary">Last changed {dateTime(controls.updated_at)}</Typography.Text>
      )}
    </Flex>
  );
}

type ProgramForm = { blocked_categories: string[]; blocked_countries: string[]; provisional_credit: boolean };
const KEY = ['program-controls'];

/**
 * /admin/program-controls: what no card may pay, checked before each card's own controls (issue 32).
 * Every staff member reads it (it explains a program_blocked decline); a Super-Admin changes it.
 */
export default function ProgramControls() {
  const [form] = Form.useForm<ProgramForm>();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const canEdit = useCan('program.manage');
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
        provisional_credit: query.data.provisional_credit,
      });
  }, [query.data, form]);

  async function save(v: ProgramForm) {
    const body = {
      blocked_categories: v.blocked_categories ?? [],
      blocked_countries: v.blocked_countries ?? [],
      provisional_credit: !!v.provisional_credit,
    };
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
        subtitle="Merchant categories and countries no card may pay, whatever its own controls say, and how disputes are credited."
      />
      <Card style={{ maxWidth: 880 }}>
        {query.isLoading ? (
          <Skeleton active />
        ) : query.error ? (
          <Alert type="error" showIcon message="Could not load the program controls." />
        ) : !canEdit && query.data ? (
          <ReadOnly controls={query.data} />
        ) : (
          <Form
            noValidate
            form={form}
            layout="vertical"
            requiredMark={false}
            onFinish={save}
            onValuesChange={clearErrorsOnChange(form)}
            aria-label="Program Controls"
          >
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
            <Form.Item
              name="provisional_credit"
              label="Provisional credit on disputes"
              valuePropName="checked"
              extra="When on, a dispute sent to the card issuer credits the card at once; the credit is taken back if the dispute is lost or withdrawn."
            >
              <Switch />
            </Form.Item>
            {query.data?.updated_at && (
              <Typography.Paragraph type="secondary">
                Last changed {dateTime(query.data.updated_at)}
              </Typography.Paragraph>
            )}
            <Button type="primary" htmlType="submit" loading={busy}>
              Save Changes
            </Button>
          </Form>
        )}
      </Card>
    </>
  );
}
