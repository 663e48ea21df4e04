import { type APIRequestContext, expect } from '@playwright/test';
import { staffToken } from './cards';

export const SENT_FOR_APPROVAL = /^Sent for approval: a second person must approve it/;
/** The demo's second Super-Admin: approves what the demo's policies hold back (issue 33). */
export const SUPER2 = 'super2@cardwallet.example';

/**
 * A second person approves the newest pending request whose summary matches, through the API (the
 * Approvals screen has its own journey); answers the action's own answer.
 */
export async function approveAsSecondPerson(
  request: APIRequestContext,
  summary: RegExp,
  approver = SUPER2,
): Promise<{ status: number; body: unknown }> {
  const headers = { authorization: `Bearer ${await staffToken(request, approver)}` };
  const list = await request.get('/api/v1/approvals?state=pending&per_page=100', { headers });
  expect(list.status()).toBe(200);
  const found = ((await list.json()).data as Array<{ id: string; summary: string }>).find((a) =>
    summary.test(a.summary),
  );
  expect(found, `a pending request like ${summary}`).toBeDefined();
  const res = await request.post(`/api/v1/approvals/${found!.id}/approve`, { headers });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return { status: res.status(), body: await res.json() };
}
