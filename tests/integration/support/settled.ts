import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';

/**
 * Expects a figure the API answers to equal the truth counted in SQL. On PostgreSQL every test file shares one
 * database and another file may add rows between the two reads, so they are read again (answer, truth, answer)
 * until one round agrees; a wrong figure never does.
 */
export async function expectAgreeing<T>(answer: () => Promise<T>, truth: () => Promise<T>, label = '') {
  let last: [T, T] | undefined;
  for (let round = 0; round < 20; round++) {
    const [a, b, c] = [await answer(), await truth(), await answer()];
    if (isDeepStrictEqual(a, b) && isDeepStrictEqual(b, c)) return;
    last = [a, b];
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(last?.[0], label).toEqual(last?.[1]);
}
