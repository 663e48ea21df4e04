import type { ApiErrorBody } from '../contract';

/**
 * Every failed call becomes one ApiError. It has the shape of Refine's HttpError
 * (message, statusCode, errors) so the back-office forms show field errors too.
 */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly errors?: Record<string, string[]>;
  readonly error?: string | Record<string, string[]>;

  constructor(
    statusCode: number,
    body: Partial<ApiErrorBody> | null,
    fallback = 'Something went wrong. Please try again.',
  ) {
    super(body?.message || fallback);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.error = body?.error;
    if (body?.error && typeof body.error === 'object') this.errors = body.error;
  }

  /** What to show a person: the server's `error` when it is a sentence (not a code such as login_expired), else its message. */
  get display(): string {
    if (typeof this.error === 'string' && this.error && !/^[a-z]+(_[a-z]+)*$/.test(this.error)) return this.error;
    const first = this.errors ? Object.values(this.errors)[0]?.[0] : undefined;
    return first ?? this.message;
  }

  fieldError(field: string): string | undefined {
    return this.errors?.[field]?.[0];
  }
}

export const NETWORK_ERROR = 'We could not reach the server. Check your connection and try again.';

export function messageOf(e: unknown, fallback: string): string {
  if (e instanceof ApiError) return e.display || fallback;
  return fallback;
}
