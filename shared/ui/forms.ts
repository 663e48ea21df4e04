import type { FormInstance } from 'antd';
import { ApiError } from '../api/errors';

/** Puts a 422's per-field messages on the form's fields; true when there were any. */
export function applyFieldErrors(form: FormInstance, e: unknown, rename: Record<string, string> = {}): boolean {
  if (!(e instanceof ApiError) || !e.errors) return false;
  const known = new Set(Object.keys(form.getFieldsValue(true)));
  const fields = Object.entries(e.errors)
    .map(([name, errors]) => ({ name: rename[name] ?? name, errors }))
    .filter((f) => known.has(f.name));
  form.setFields(fields);
  return fields.length > 0;
}
