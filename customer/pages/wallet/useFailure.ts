import { App, type FormInstance } from 'antd';
import { useCallback } from 'react';
import { sayFailure } from '@shared/ui/forms';

/**
 * A failed wallet call, said once: under the form's fields when the answer names them, otherwise
 * the server's message as a toast (as the spec has it).
 */
export function useFailure() {
  const { message } = App.useApp();
  return useCallback(
    (error: unknown, form?: FormInstance) => {
      sayFailure(form, error, (text) => message.error(text, 4), 'Something went wrong. Please try again.');
    },
    [message],
  );
}
