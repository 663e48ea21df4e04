import { useForm } from '@refinedev/antd';
import { type BaseKey, type BaseRecord, type HttpError, useCustomMutation } from '@refinedev/core';
import { sayFailure } from '@shared/ui/forms';
import { useIntentKey, useSubmit } from '@shared/ui/useSubmit';

/**
 * Refine's useForm as the back-office's edit panels use it (create or edit of a resource, through
 * the data provider's create/update):
 * - the record is the list's row, given as the Form's initialValues: the API has no GET for one
 *   fee or one admin, so Refine's own fetch is off;
 * - Refine invalidates the resource's lists after a success, and stays where it is (no redirect);
 * - one Idempotency-Key per intent, passed in the mutation's meta;
 * - a failure is said once: Refine puts the server's field errors under their fields, `say` gets
 *   the message when no field of the form is named (Refine's own notifications are off);
 * - no unsaved-changes flag: the panels close without asking, as the rest of the back-office does,
 *   and a flag left set by a closed panel would stay set.
 */
export function usePanelForm<TVariables>({
  action,
  resource,
  id,
  say,
  fallback,
  rename,
  onSaved,
}: {
  action: 'create' | 'edit';
  resource: string;
  id?: BaseKey;
  say(text: string): void;
  fallback: string;
  /** the API's field name → the form's (Add Admin's first and last name come from Full Name) */
  rename?: Record<string, string>;
  /** `answer`: the API's `data` (a 202 held for approval says so: see heldForApproval) */
  onSaved(values: TVariables, answer: unknown): void;
}) {
  const { key, settle } = useIntentKey();
  const refine = useForm<BaseRecord, HttpError, TVariables>({
    action,
    resource,
    id,
    queryOptions: { enabled: false },
    redirect: false,
    successNotification: false,
    errorNotification: false,
    warnWhenUnsavedChanges: false,
    meta: { idempotencyKey: key },
    onMutationSuccess: (data, values): void => {
      settle();
      onSaved(values, data?.data);
    },
    onMutationError: (error): void => {
      settle(error);
      sayFailure(refine.form, error, say, fallback, rename);
    },
  });
  /** The Form's onFinish: what to send, once (a second Enter while the first is on its way does nothing). */
  const submit = (values: TVariables) => {
    if (refine.formLoading) return;
    // A failure is handled by onMutationError above.
    refine.onFinish(values).catch(() => undefined);
  };
  return { form: refine.form, formProps: refine.formProps, busy: refine.formLoading, submit };
}

/**
 * An action on a resource that is not a create or an update (approve, flag, reset 2FA…) through the
 * data provider's `custom`, with one Idempotency-Key per intent (useSubmit); Refine's notifications
 * are off because each panel says the answer once, its own way. Answers the API's body (`{ data }`).
 */
export function useAction<TData extends BaseRecord>() {
  const { mutateAsync } = useCustomMutation<TData>();
  const { busy, submit } = useSubmit();
  const run = (method: 'post' | 'put' | 'delete', url: string, values: object) =>
    submit((key) =>
      mutateAsync({
        url,
        method,
        values,
        meta: { idempotencyKey: key },
        successNotification: false,
        errorNotification: false,
      }),
    );
  return { busy, run };
}
