import type { AppContext } from '../context';
import { sendDueMail } from '../modules/notifications/mail';
import type { Job } from './runner';

/**
 * The notifications' mail outbox, swept on every scheduler tick (its period is the minute, so each
 * tick runs it): mail whose kick after its commit was lost (a crash) or that waits for a retry.
 */
export const notificationMail: Job = {
  name: 'notification-mail',
  description: 'Send notification mail that is due: retries and anything a kick after its commit missed (every tick)',
  periodOf: (d) => d.toISOString().slice(0, 16),
  async run(ctx) {
    return { sent_or_tried: await sendDueMail(ctx) };
  },
};

/**
 * Between scheduler ticks: looks for due mail every few seconds (one indexed query on the partial
 * index of pending mail), so a retry is not late by a whole tick. Safe with several instances.
 */
export function startMailWorker(ctx: AppContext, everyMs = 5_000): () => void {
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      await sendDueMail(ctx);
    } catch (err) {
      ctx.log.error({ err }, 'notification mail failed');
    } finally {
      busy = false;
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
