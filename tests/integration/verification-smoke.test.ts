import { afterAll, beforeAll, expect, it } from 'vitest';
import { type TestApp, startTestApp } from './support/app';
import { newCompany, newIndividual, newStaff } from './support/actors';
import { JPEG_1PX, PDF_MINI, PNG_1PX, form } from './support/files';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const post = (path: string, token: string, body: FormData) =>
  fetch(`${t.url}/api/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body }).then(
    async (r) => ({ status: r.status, body: await r.json() }),
  );

it('KYC, review, rejection and resubmission, deactivation, admins and the audit trail', async () => {
  const a = await newIndividual(t);
  const staff = await newStaff(t, 'Super-Admin');
  const bad = await post(
    `/individuals/kyc/${a.id}`,
    a.token,
    form(
      { id_type: 'passport', issued_id: 'G1234567' },
      {
        address_proof: { data: Buffer.from('MZ not a pdf'), name: 'x.pdf' },
        selfie_image: { data: PNG_1PX, name: 's.png' },
      },
    ),
  );
  expect(bad.status).toBe(422);
  expect(bad.body.error.address_proof[0]).toBe('Upload a JPEG, PNG or PDF file');
  const missing = await post(`/individuals/kyc/${a.id}`, a.token, form({ issued_id: '' }, {}));
  expect(missing.body.error).toMatchObject({ issued_id: ['Issued id details is required'] });
  const ok = await post(
    `/individuals/kyc/${a.id}`,
    a.token,
    form(
      { id_type: 'passport', issued_id: 'G1234567' },
      { address_proof: { data: PDF_MINI, name: 'bill.pdf' }, selfie_image: { data: JPEG_1PX, name: 'me.jpg' } },
    ),
  );
  expect(ok.status).toBe(201);
  expect((await t.api('GET', '/individuals/profile', { token: a.token })).body.data.user.state).toBe('pending');
  const list = await t.api('GET', '/verification/get-individuals?state=pending', { token: staff.token });
  const row = list.body.data.find((r: any) => r.account_id === a.id);
  const detail = await t.api('GET', `/verification/details/${row.id}`, { token: staff.token });
  expect(detail.body.data.verifications.identification).toBe('passport:G1234567');
  expect(detail.body.data.documents).toHaveLength(2);
  const file = await fetch(`${t.url}${detail.body.data.documents[0].url}`, {
    headers: { authorization: `Bearer ${staff.token}` },
  });
  expect(file.headers.get('x-content-type-options')).toBe('nosniff');
  expect(file.headers.get('content-disposition')).toMatch(/^attachment/);
  const other = await newIndividual(t);
  expect(
    (
      await fetch(`${t.url}${detail.body.data.documents[0].url}`, {
        headers: { authorization: `Bearer ${other.token}` },
      })
    ).status,
  ).toBe(404);
  const rej = await t.api('POST', '/verification/decide', {
    token: staff.token,
    body: { verification_id: row.id, decision: 'reject', reason: 'The selfie is blurred' },
  });
  expect(rej.status).toBe(200);
  const prof = (await t.api('GET', '/individuals/profile', { token: a.token })).body.data;
  expect(prof.user.state).toBe('Unverified');
  expect(prof.verification).toMatchObject({ state: 'rejected', reason: 'The selfie is blurred' });
  expect(
    (
      await t.api('POST', '/verification/decide', {
        token: staff.token,
        body: { verification_id: row.id, decision: 'approve' },
      })
    ).status,
  ).toBe(409);

  const co = await newCompany(t);
  const kyb = await post(
    `/company/kyb/${co.companyId}`,
    co.token,
    form(
      {
        registered_name: 'Volta Trading Ltd',
        company_profile: 'Importers',
        tax_number: 'C0012345',
        incorporation_date: '2015-06-30',
        operation_countries: 'GH, NG',
        publicly_listed: 'false',
      },
      { shareholder_passport: { data: PNG_1PX, name: 'p.png' } },
    ),
  );
  expect(kyb.status).toBe(201);

  const list2 = await t.api('GET', '/individuals?state=Unverified', { token: staff.token });
  expect(list2.status).toBe(200);
  expect((await t.api('DELETE', `/individuals/${a.id}`, { token: staff.token })).status).toBe(202);
  expect((await t.api('GET', '/individuals/profile', { token: a.token })).status).toBe(401);
  expect(
    (await t.api('POST', '/individuals/status', { token: staff.token, body: { account: a.id, status: 'activate' } }))
      .status,
  ).toBe(200);

  const admin = await t.api('POST', '/account/admins', {
    token: staff.token,
    body: {
      first_name: 'New',
      last_name: 'Admin',
      phone_number: '+233200000000',
      email: `na.${Date.now()}@example.com`,
      role: 'admin',
    },
  });
  expect(admin.status).toBe(201);
  expect((await t.api('DELETE', `/account/admins/${staff.id}`, { token: staff.token })).status).toBe(403);
  const audit = await t.api('GET', `/audit-logs?actor=${encodeURIComponent(staff.email)}`, { token: staff.token });
  const actions = audit.body.data.map((x: any) => x.action);
  expect(actions).toEqual(
    expect.arrayContaining(['verification.reject', 'individual.deactivate', 'individual.reactivate', 'admin.create']),
  );
});
