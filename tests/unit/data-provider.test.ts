import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dataProvider } from '@shared/api/dataProvider';
import { ApiError } from '@shared/api/errors';
import { clearSession, setSessionFromPayload } from '@shared/api/session';
import type { SessionPayload } from '@shared/contract';

/**
 * What the back-office forms on Refine rely on: the data provider's update, create and custom send
 * the Idempotency-Key given in `meta` (one per intent), and a refusal arrives as an HttpError-shaped
 * ApiError whose per-field messages Refine's useForm puts under the fields.
 */

type Call = { url: string; method: string; headers: Record<string, string>; body: unknown };
let calls: Call[] = [];
let answer: () => Response;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  calls = [];
  answer = () => json(200, { data: { id: 'f1' } });
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({
      url,
      method: String(init.method),
      headers: init.headers as Record<string, string>,
      body: init.body ? JSON.parse(String(init.body)) : undefined,
    });
    return answer();
  });
  setSessionFromPayload({
    access_token: 'token',
    expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    user: { id: 'u1' },
    company: null,
  } as unknown as SessionPayload);
});

afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
});

describe('the data provider under the back-office forms', () => {
  it('update: PUT {path}/{id} with the body and the intent key', async () => {
    const r = await dataProvider.update({
      resource: 'fees',
      id: 'f1',
      variables: { value: '1.25', status: 1 },
      meta: { path: 'fees', idempotencyKey: 'key-1' },
    });
    expect(r.data).toEqual({ id: 'f1' });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      url: '/api/v1/fees/f1',
      method: 'PUT',
      headers: { 'idempotency-key': 'key-1', authorization: 'Bearer token' },
      body: { value: '1.25', status: 1 },
    });
  });

  it("create: POST to the resource's path with the intent key", async () => {
    await dataProvider.create({
      resource: 'administration-admins',
      variables: { first_name: 'Nana' },
      meta: { path: 'account/admins', idempotencyKey: 'key-2' },
    });
    expect(calls[0]).toMatchObject({
      url: '/api/v1/account/admins',
      method: 'POST',
      headers: { 'idempotency-key': 'key-2' },
    });
  });

  it('custom: the method and URL given, the answer as the API sends it, the intent key', async () => {
    answer = () => json(200, { message: 'Momo settings saved.', data: { momo_name: 'x' } });
    const r = await dataProvider.custom!({
      url: '/param/momo-sync',
      method: 'put',
      payload: { momo_name: 'x' },
      meta: { idempotencyKey: 'key-3' },
    });
    expect(r).toEqual({ message: 'Momo settings saved.', data: { momo_name: 'x' } });
    expect(calls[0]).toMatchObject({
      url: '/api/v1/param/momo-sync',
      method: 'PUT',
      headers: { 'idempotency-key': 'key-3' },
    });
  });

  it("a 422 is an HttpError: statusCode, the server's message, per-field errors", async () => {
    answer = () =>
      json(422, { message: 'The given data was invalid.', error: { value: ['Value must be at most 100'] } });
    const failure = await dataProvider
      .update({ resource: 'fees', id: 'f1', variables: { value: '101' }, meta: { idempotencyKey: 'key-4' } })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({
      statusCode: 422,
      message: 'The given data was invalid.',
      errors: { value: ['Value must be at most 100'] },
    });
  });
});
