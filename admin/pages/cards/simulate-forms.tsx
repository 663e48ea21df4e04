import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, AutoComplete, Checkbox, Form, type FormInstance, Input, InputNumber, Modal, Select } from 'antd';
import { type ReactNode, useState } from 'react';
import { apiData } from '@shared/api/client';
import { messageOf } from '@shared/api/errors';
import { sandboxAuthorizationBody } from '@shared/contract';
import { formatMoney } from '@shared/money';
import { refreshCards } from '@shared/ui/cards';
import { contractRule } from '@shared/ui/contractRules';
import { NOT_ARIA_REQUIRED, applyFieldErrors, clearErrorsOnChange } from '@shared/ui/forms';
import { amountRule, typedCents } from '@shared/ui/wallet';
import { useAction } from '../../components/refineForms';

/** A category as `GET /merchant-categories` lists it (read loosely: the list is another module's). */
type Category = { name: string; label?: string; mccs?: string[] };

/** The merchant categories, one option per code ("7011 · Hotels…"); none while the list is not there. */
function useMccOptions() {
  const q = useQuery({
    queryKey: ['merchant-categories'],
    queryFn: () => apiData<Category[]>('GET', '/merchant-categories', { silent: true }),
    staleTime: 5 * 60_000,
    retry: false,
  });
  const options = (Array.isArray(q.data) ? q.data : []).flatMap((c) =>
    (c.mccs ?? []).map((mcc) => ({ value: mcc, label: `${mcc} · ${c.label ?? c.name}` })),
  );
  return options;
}

/**
 * The merchant's category code: typed (four digits), or picked from the categories by name when the
 * server lists them, so a simulation reads like the payment it stands for.
 */
function MccField() {
  const options = useMccOptions();
  const mcc = Form.useWatch('mcc');
  const known = options.find((o) => o.value === mcc);
  return (
    <Form.Item
      name="mcc"
      label="Merchant category (MCC)"
      required={NOT_ARIA_REQUIRED}
      rules={[contractRule(sandboxAuthorizationBody.shape.mcc)]}
      extra={known ? known.label : 'Four digits, e.g. 7011 for a hotel or 5812 for a restaurant'}
    >
      <AutoComplete
        options={options}
        filterOption={(typed, o) =>
          String(o?.label ?? '')
            .toLowerCase()
            .includes(typed.toLowerCase())
        }
        placeholder="7011"
      >
        <Input inputMode="numeric" autoComplete="off" />
      </AutoComplete>
    </Form.Item>
  );
}

/** Amount in USD; `required` false leaves it optional (a reversal of all that is held). */
export function AmountField({ label = 'Amount', required = true, extra, placeholder }: AmountProps) {
  return (
    <Form.Item
      name="amount"
      label={label}
      extra={extra}
      rules={required ? [amountRule()] : [{ validator: optionalAmount }]}
    >
      <Input inputMode="decimal" addonBefore="USD" autoComplete="off" placeholder={placeholder ?? 'USD 100.00'} />
    </Form.Item>
  );
}
type AmountProps = { label?: string; required?: boolean; extra?: ReactNode; placeholder?: string };
const optionalAmount = (_: unknown, v: unknown) =>
  v == null || String(v).trim() === '' ? Promise.resolve() : amountRule().validator(_, v);

/** The merchant as the network names it: name, category code and country. */
export function MerchantFields() {
  return (
    <>
      <Form.Item name="merchant" label="Merchant" rules={[{ required: true, message: 'Merchant is required' }]}>
        <Input autoComplete="off" placeholder="Hotel Lagos" maxLength={100} />
      </Form.Item>
      <MccField />
      <Form.Item
        name="country"
        label="Country"
        rules={[
          { required: true, message: 'Country is required' },
          { pattern: /^[A-Za-z]{2}$/, message: 'Country is a two-letter code such as GH' },
        ]}
      >
        <Input autoComplete="off" maxLength={2} style={{ textTransform: 'uppercase', width: 100 }} />
      </Form.Item>
    </>
  );
}

export function PartialField() {
  return (
    <Form.Item name="partial_allowed" valuePropName="checked">
      <Checkbox>The merchant accepts a partial approval</Checkbox>
    </Form.Item>
  );
}

export function CloseField() {
  return (
    <Form.Item name="close_authorization" valuePropName="checked" extra="What it does not clear goes back to the card.">
      <Checkbox>Close the authorisation</Checkbox>
    </Form.Item>
  );
}

export function DaysField() {
  return (
    <Form.Item
      name="older_than_days"
      label="Holds older than (days)"
      required={NOT_ARIA_REQUIRED}
      rules={[{ required: true, message: 'Days is a whole number from 0 to 365' }]}
      extra="Every card's holds pending longer than this go back to their cards. 0 expires them all."
    >
      <InputNumber min={0} max={365} precision={0} style={{ width: 120 }} />
    </Form.Item>
  );
}

export function PaymentField({ options }: { options: Array<{ value: string; label: string }> }) {
  return (
    <Form.Item name="transaction_id" label="For the payment" extra="Optional: a refund may come without one.">
      <Select allowClear placeholder="No earlier payment" options={options} />
    </Form.Item>
  );
}

/** Cents typed → the API's "12.34"; blank stays out of the body. */
export const moneyOf = (v: unknown) => {
  const c = typedCents(v);
  return c == null ? undefined : formatMoney(c);
};

export interface StepModalProps<V> {
  open: boolean;
  title: string;
  okText: string;
  intro?: ReactNode;
  initialValues?: Partial<V>;
  /** the API path (under /api/v1) and body of the step */
  request(values: V): { url: string; body: object };
  /** what the answer says to the person, from its data */
  answer(data: Record<string, unknown>, values: V): { text: string; ok: boolean };
  onDone(text: string, ok: boolean): void;
  onClose(): void;
  children: ReactNode;
}

/**
 * One simulated message in a modal: its form, sent once per intent; a refusal goes under its
 * fields (422) or at the top of the form; an answer closes the modal, says itself to the panel
 * and refreshes every card figure and list.
 */
export function StepModal<V extends object>(p: StepModalProps<V>) {
  const [form] = Form.useForm<V>();
  const qc = useQueryClient();
  const { busy, run } = useAction<Record<string, unknown>>();
  const [error, setError] = useState<string>();
  async function send(values: V) {
    setError(undefined);
    const { url, body } = p.request(values);
    const r = await run('post', url, body);
    if (!r.ok) {
      if (!applyFieldErrors(form as FormInstance, r.error))
        setError(messageOf(r.error, 'Something went wrong. Please try again.'));
      return;
    }
    const said = p.answer(r.data.data, values);
    await refreshCards(qc);
    p.onDone(said.text, said.ok);
  }
  return (
    <Modal
      open={p.open}
      title={p.title}
      okText={p.okText}
      onOk={() => form.submit()}
      okButtonProps={{ loading: busy }}
      onCancel={p.onClose}
      destroyOnHidden
      afterClose={() => setError(undefined)}
    >
      {p.intro}
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} role="alert" />}
      <Form<V>
        noValidate
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={p.initialValues}
        onFinish={send}
        onValuesChange={clearErrorsOnChange(form as FormInstance)}
        preserve={false}
      >
        {p.children}
        {/* Enter in a field submits the form */}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  );
}
