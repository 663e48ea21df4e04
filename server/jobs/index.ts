import { apiFees } from './api-fees';
import { CARD_JOBS } from './card-jobs';
import type { Job } from './runner';

/** Every scheduled job, in the order a tick runs them (terminations before the monthly fee). */
export const JOBS: Job[] = [...CARD_JOBS, apiFees];

export const jobByName = (name: string) => JOBS.find((j) => j.name === name);
