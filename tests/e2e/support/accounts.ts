import type { APIRequestContext } from '@playwright/test';
import { PASSWORD, uniqueEmail } from './flows';
import { waitForLink } from './mail';

/** A verified individual made through the API, so journeys about later screens start quickly. */
export async function verifiedIndividual(request: APIRequestContext, first = 'Adwoa', last = 'Boakye') {
  const email = uniqueEmail('ind');
  const res = await request.post('/api/v1/account/individuals/register', {
    data: {
      first_name: first,
      last_name: last,
      email,
      password: PASSWORD,
      confirm_password: PASSWORD,
      phone_number: '+233241230000',
    },
  });
  if (res.status() !== 201) throw new Error(`register ${res.status()} ${await res.text()}`);
  const link = await waitForLink(email, '/verify-email');
  await request.get(link, { maxRedirects: 0 });
  return { email, password: PASSWORD };
}

export async function verifiedCompany(request: APIRequestContext) {
  const email = uniqueEmail('co');
  const res = await request.post('/api/v1/account/companies/register', {
    data: {
      first_name: 'Kwesi',
      last_name: 'Appiah',
      email,
      password: PASSWORD,
      confirm_password: PASSWORD,
      company_name: 'Cape Coast Ventures',
      company_website: 'capecoast.example.com',
      company_email: `accounts.${email}`,
      company_phone: '+233302999888',
    },
  });
  if (res.status() !== 201) throw new Error(`register ${res.status()} ${await res.text()}`);
  await request.get(await waitForLink(email, '/verify-email'), { maxRedirects: 0 });
  return { email, password: PASSWORD };
}
