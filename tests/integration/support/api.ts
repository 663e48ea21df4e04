import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { inject } from 'vitest';
import { type Actor, newCompany, randomIp } from './actors';
import type { TestApp } from './app';
import { verifyAccount } from './cards';

/** Helpers for the API integration tests: verified companies, credentials, tokens, a webhook receiver. */

/**
 * deliverDue() sends whatever is due in the whole database, by the app's clock. On PostgreSQL all
 * test files share one database, so a file that delivers webhooks (1) runs its clock years back,
 * where no other file's events are due, and (2) holds this lock while it runs, so two such files
 * take turns. On PGlite every file has its own database and this does nothing.
 */
export const DELIVERY_EPOCH = '2016-03-01T08:00:00Z';
const DELIVERY_LOCK = 7_270_002;

export async function holdDeliveryLock(): Promise<() => Promise<void>> {
  const url = inject('postgresUrl');
  if (!url) return async () => undefined;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('select pg_advisory_lock($1)', [DELIVERY_LOCK]);
  return () => client.end();
}

/** A company whose KYB was approved (only those may manage API credentials). */
export async function verifiedCompany(t: TestApp): Promise<Actor> {
  const a = await newCompany(t);
  await verifyAccount(t, a);
  return a;
}

export interface Credentials {
  clientId: string;
  secret: string;
}

export async function generateCredentials(t: TestApp, admin: Actor): Promise<Credentials> {
  const res = await t.api('POST', '/third-party/clients', {
    token: admin.token,
    body: { name: 'Volta Trading Ltd', redirect_uri: null, identifier: admin.companyId },
  });
  if (res.status !== 201) throw new Error(`generate credentials ${res.status} ${JSON.stringify(res.body)}`);
  return { clientId: res.body.data.client_id, secret: res.body.data.client_secret };
}

export const tokenRequest = (t: TestApp, body: Record<string, unknown>, ip = randomIp()) =>
  t.api('POST', '/oauth/token', { body, ip });

/** An access token for these credentials (JSON body). */
export async function mintToken(t: TestApp, c: Credentials): Promise<string> {
  const res = await tokenRequest(t, {
    grant_type: 'client_credentials',
    client_id: c.clientId,
    client_secret: c.secret,
  });
  if (res.status !== 200) throw new Error(`token ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.access_token;
}

/** A verified company with credentials and a fresh API token. */
export async function apiCompany(t: TestApp) {
  const admin = await verifiedCompany(t);
  const creds = await generateCredentials(t, admin);
  return { admin, creds, token: await mintToken(t, creds) };
}

/** A verified company with API credentials whose active callback is a receiver on loopback (close it after). */
export async function hookedCompany(t: TestApp) {
  const c = await apiCompany(t);
  const receiver = await startReceiver(t);
  const res = await t.api('POST', '/third-party/callback-request', {
    token: c.admin.token,
    body: { callback_url: receiver.url, active: true },
  });
  if (res.status !== 200) {
    await receiver.close();
    throw new Error(`callback ${res.status} ${JSON.stringify(res.body)}`);
  }
  return { ...c, receiver };
}

/** The staff List of Third Parties row of a client (paging through the whole list). */
export async function thirdPartyRow(t: TestApp, staff: Actor, clientId: string) {
  for (let page = 1; ; page++) {
    const res = await t.api('GET', `/third-party/clients?per_page=100&page=${page}`, { token: staff.token });
    if (res.status !== 200) throw new Error(`third parties ${res.status} ${JSON.stringify(res.body)}`);
    const row = res.body.data.find((r: { client_id: string }) => r.client_id === clientId);
    if (row) return row;
    if (page >= res.body.last_page) return undefined;
  }
}

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** the app's clock when it arrived */
  at: number;
}

export type Answer = (r: Received, res: http.ServerResponse) => void;

/** A webhook receiver on loopback that records what it gets and answers as told (204 by default). */
export async function startReceiver(t: TestApp, answer: Answer = (_r, res) => res.writeHead(204).end()) {
  const received: Received[] = [];
  const state = { answer };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const r = { path: req.url ?? '', headers: req.headers, body, at: t.clock.now().getTime() };
      received.push(r);
      state.answer(r, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/hooks`,
    base,
    received,
    answer: (a: Answer) => void (state.answer = a),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Standard Webhooks: base64 HMAC-SHA256 over "{id}.{timestamp}.{body}", keyed with the secret's base64 part. */
export function expectedSignature(secret: string, id: string, timestamp: string, body: string) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
}

/** Whether any v1 signature in the header matches. */
export function signatureValid(secret: string, id: string, timestamp: string, body: string, header: string) {
  const want = expectedSignature(secret, id, timestamp, body);
  return header.split(' ').some((s) => s === `v1,${want}`);
}
