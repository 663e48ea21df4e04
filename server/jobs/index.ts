import { apiFees } from './api-fees';
import { CARD_JOBS } from './card-jobs';
import { chainDeposits } from './chain-deposits';
import { holdExpiry } from './hold-expiry';
import { housekeeping } from './housekeeping';
import { notificationMail } from './notification-mail';
import { reconciliation } from './reconciliation';
import type { Job } from './runner';

/** Every scheduled job, in the order a tick runs them (terminations before the monthly fee). */
export const JOBS: Job[] = [...CARD_JOBS, holdExpiry, apiFees, housekeeping, reconciliation, notificationMail];

/** Every job the CLI runs: the scheduled ones, and the deposit watcher's pass (it has its own loop). */
export const ALL_JOBS: Job[] = [...JOBS, chainDeposits];

export const jobByName = (name: string) => ALL_JOBS.find((j) => j.name === name);
