import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Job, startScheduler } from '../../server/jobs/runner';
import { type TestApp, startTestApp } from './support/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('the job scheduler', () => {
  it('runs every job of a tick even when one before it fails', async () => {
    const suffix = crypto.randomUUID().slice(0, 8);
    const ran: string[] = [];
    const failing: Job = {
      name: `always-fails-${suffix}`,
      description: 'throws on every run',
      periodOf: () => 'p',
      async run() {
        ran.push('failing');
        throw new Error('broken job');
      },
    };
    const after: Job = {
      name: `runs-after-${suffix}`,
      description: 'comes after the failing one',
      periodOf: () => 'p',
      async run() {
        ran.push('after');
        return {};
      },
    };
    const stop = startScheduler(t.ctx, [failing, after], 60_000, 0);
    try {
      await expect.poll(() => ran, { timeout: 20_000 }).toEqual(['failing', 'after']);
    } finally {
      await stop();
    }
    expect(t.logs.some((l) => l.includes('scheduled job failed') && l.includes(failing.name))).toBe(true);
  });
});
