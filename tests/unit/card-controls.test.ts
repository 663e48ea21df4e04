import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardControlsBody } from '@shared/contract';
import { MERCHANT_CATEGORIES, MERCHANT_CATEGORY_NAMES, categoryOf } from '@shared/merchant-categories';

/** The merchant categories as data, and the card-controls body's rules, over random input. */

const mcc = fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0'));
const names = fc.subarray(MERCHANT_CATEGORY_NAMES, { minLength: 1 });

describe('categoryOf', () => {
  it('answers, for any four-digit code, null or the one category that lists it', () => {
    fc.assert(
      fc.property(mcc, (code) => {
        const name = categoryOf(code);
        const listing = MERCHANT_CATEGORIES.filter((c) => c.mccs.includes(code));
        expect(listing.length).toBeLessThanOrEqual(1);
        expect(name).toBe(listing[0]?.name ?? null);
      }),
    );
  });
});

describe('cardControlsBody', () => {
  it('takes any list of known categories on one side, de-duplicated', () => {
    fc.assert(
      fc.property(names, fc.boolean(), (list, allow) => {
        const r = cardControlsBody.safeParse({
          [allow ? 'allowed_categories' : 'blocked_categories']: [...list, ...list],
        });
        expect(r.success).toBe(true);
        expect(r.data?.[allow ? 'allowed_categories' : 'blocked_categories']).toEqual(list);
      }),
    );
  });

  it('refuses an allow list and a block list of one kind together, on the block list', () => {
    fc.assert(
      fc.property(names, names, (allowed, blocked) => {
        const r = cardControlsBody.safeParse({ allowed_categories: allowed, blocked_categories: blocked });
        expect(r.success).toBe(false);
        expect(r.error?.issues.map((i) => i.path.join('.'))).toContain('blocked_categories');
      }),
    );
  });

  it('refuses a name that is not a category', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !MERCHANT_CATEGORY_NAMES.includes(s.trim())),
        (name) => {
          expect(cardControlsBody.safeParse({ blocked_categories: [name] }).success).toBe(false);
        },
      ),
    );
  });

  it('keeps an empty body as no controls at all', () => {
    expect(cardControlsBody.parse({})).toEqual({
      allowed_categories: [],
      blocked_categories: [],
      allowed_countries: [],
      blocked_countries: [],
      per_transaction_limit: null,
      max_approvals: null,
    });
  });
});
