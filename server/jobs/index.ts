import { apiFees } from './api-fees';
import { CARD_JOBS } from './card-jobs';
import { housekeeping } from './housekeeping';
import { notificationMail } from './notification-mail';
import { reconciliation } from './reconciliation';
import type { Job } from './runner';

/** Every scheduled job, in the order a tick runs them (terminations before the monthly fee). */
export const JOBS: Job[] = [...CARD_JOBS, apiFees, housekeeping, reconciliation, notificationMail];

export const jobByName = (name: string) => JOBS.find((j) => j.name === name);
