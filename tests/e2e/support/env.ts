import { test } from '@playwright/test';
import path from 'node:path';

/** The data directory of the server the running test's project talks to (mail, locks, authenticator). */
export const dataDir = () => path.join(process.env.E2E_DATA_DIR!, test.info().project.name);
