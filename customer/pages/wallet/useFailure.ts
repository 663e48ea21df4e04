import { App, type FormInstance } from 'antd';
import { useCallback } from 'react';
import { messageOf } from '../../../shared/api/errors';
import { applyFieldErrors } from '../../../shared/ui/forms';

/**
 * A failed wallet call: the server's message as a toast (as the spec has it), and on the form's
 * fields too when the answer names them.
 */
export function useFailure() {
  const { message } = App.useApp();
  return useCallback(
    (error: unknown, form?: FormInstance) => {
      if (form) applyFieldErrors(form, error);
      message.error(messageOf(error, 'Something went wrong. Please try again.'), 4);
    },
    [message],
  );
}
