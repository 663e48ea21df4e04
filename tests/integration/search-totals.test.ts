import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Actor, newIndividual, newStaff } from './support/actors';
import { type TestApp, startTestApp } from './support/app';
import { newCard, rows } from './support/cards';
import { fundWallet } from './support/money';
import { expectAgreeing } from './support/settled';

/**
 * A search's total is counted in narrow rows kept by triggers (migration 0056: card_search, user_search). They must
 * stay what the cards and users say through every kind of change, and each total must be what ILIKE over the lists'
 * own columns counts (the staff's card list has deleted cards): case, accents, the characters LIKE treats specially, and a search across the two texts.
 */
let t: TestApp;
let staff: Actor;
beforeAll(async () => {
  t = await startTestApp();
  staff = await newStaff(t);
});
afterAll(() => t?.close());

/** Letters only (names are checked), unique to this run: the PostgreSQL test files share one database. */
const tag = `Qz${Array.from({ length: 7 }, () => String.fromCharCode(97 + randomInt(26))).join('')}`;

const one = async (q: ReturnType<typeof sql>) => Number((await rows(t, q))[0]!.n);

/** Texts in card_search that no card has, or cards' texts missing there (counted as multisets): none, in one snapshot. */
const strayCards = () =>
  one(sql`select count(*) as n from (
    (select haystack from card_search
     except all select cw_card_haystack(nickname, first_name, last_name) from cards)
    union all
    (select cw_card_haystack(nickname, first_name, last_name) from cards
     except all select haystack from card_search)) x`);
/** Users whose narrow copy is missing, left over, or not what the user says now: none, in one snapshot. */
const strayUsers = () =>
  one(sql`select count(*) as n from users u full join user_search s on s.user_id = u.id
    where u.id is null or s.user_id is null
       or (s.listed, s.haystack) is distinct from
          (u.role = 'Individual' and u.deleted_at is null, lower(u.first_name || ' ' || u.last_name) || E'\n' || lower(u.email))`);

const like = (v: string) => `%${v.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;

/**
 * Each search's total as the list answers it (`path` with the search in `param`) once it agrees with `truth`, the count
 * over the list's own columns.
 */
async function totals(path: string, param: string, truth: (s: string) => ReturnType<typeof sql>, searches: string[]) {
  const listed = () =>
    Promise.all(
      searches.map(async (s) => {
        const res = await t.api('GET', `${path}?per_page=1&${param}=${encodeURIComponent(s)}`, { token: staff.token });
        expect(res.status, s).toBe(200);
        return res.body.total as number;
      }),
    );
  await expectAgreeing(listed, () => Promise.all(searches.map((s) => one(truth(s)))), `${path} search totals`);
  return listed();
}

const cardTotals = (searches: string[]) =>
  totals(
    '/cards',
    'search',
    (s) =>
      sql`select count(*) as n from cards
        where (nickname ilike ${like(s)} or first_name || ' ' || last_name ilike ${like(s)} or last4 = ${s})`,
    searches,
  );

const individualTotals = (searches: string[]) =>
  totals(
    '/individuals',
    'name',
    (s) =>
      sql`select count(*) as n from users where role = 'Individual' and deleted_at is null
        and (first_name || ' ' || last_name ilike ${like(s)} or email ilike ${like(s)})`,
    searches,
  );

describe('card search totals', () => {
  it('count what ILIKE over the nickname, the full name and last4 counts, through every kind of change', async () => {
    const owner = await newIndividual(t);
    await fundWallet(t, owner.id, 500_000);
    const made = [
      await newCard(t, owner, { nickname: `${tag} Travel`, first_name: 'Kofi', last_name: 'Mensah' }),
      await newCard(t, owner, { nickname: 'Groceries', first_name: tag.toUpperCase(), last_name: 'Ébène' }),
      await newCard(t, owner, { nickname: `${tag}%_x`, first_name: 'Ama', last_name: 'Owusu' }),
      await newCard(t, owner, { nickname: `Ads ${tag}zz`, first_name: 'Yaw', last_name: 'Boateng' }),
    ].map((c) => c.card);
    const searches = [tag, tag.toUpperCase(), tag.toLowerCase(), `${tag}%_`, `${tag}%`, `${tag} ébÈ`, `${tag}zz\nyaw`];
    expect(await strayCards()).toBe(0);
    const page = await t.api('GET', `/cards?search=${tag}&per_page=3&page=1`, { token: staff.token });
    expect(page.body.data.map((c: { id: string }) => c.id)).toEqual([made[3]!.id, made[2]!.id, made[1]!.id]);
    // The tag in three nicknames and a cardholder's name, whatever its case (accents too); the literal % and _; a
    // newline spans nothing.
    expect(await cardTotals(searches)).toEqual([4, 4, 4, 1, 1, 1, 0]);

    // Renamed, re-numbered, deleted (still in the staff's list): each as the product does it or as SQL can.
    await t.ctx.db.execute(sql`update cards set nickname = 'Plain' where id = ${made[0]!.id}`);
    await t.ctx.db.execute(sql`update cards set last4 = '9876' where id = ${made[1]!.id}`);
    expect((await t.api('DELETE', `/cards/${made[2]!.id}`, { token: owner.token })).status).toBe(202);
    expect(await strayCards()).toBe(0);
    expect(await cardTotals([tag, `${tag}%_`])).toEqual([3, 1]);
    // With another filter the total is counted over the cards, and agrees with the page.
    const deleted = await t.api('GET', `/cards?deleted_only=true&search=${tag}`, { token: staff.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ total: 1, data: [{ id: made[2]!.id }] });

    // Several in one statement: copied, then renamed, then removed.
    const copies = await rows(
      t,
      sql`insert into cards (id, wallet_id, created_by, first_name, last_name, nickname, purpose, type, issuer_token, last4,
            masked_number, exp_month, exp_year, billing)
          select gen_random_uuid(), wallet_id, created_by, first_name, last_name, nickname || n, purpose, type,
            issuer_token || '-copy' || n, last4, masked_number, exp_month, exp_year, billing
          from cards, generate_series(1, 3) n where id = ${made[3]!.id} returning id`,
    );
    expect(await strayCards()).toBe(0);
    expect(await cardTotals([tag])).toEqual([6]);
    const ids = sql.join(
      copies.map((r) => sql`${r.id}`),
      sql`, `,
    );
    await t.ctx.db.execute(sql`update cards set first_name = 'Esi', nickname = 'Other' where id in (${ids})`);
    expect(await strayCards()).toBe(0);
    expect(await cardTotals([tag])).toEqual([3]);
    await t.ctx.db.execute(sql`update cards set deleted_at = now() where id in (${ids})`);
    await t.ctx.db.execute(sql`delete from ledger_accounts where owner_id in (${ids})`);
    await t.ctx.db.execute(sql`delete from cards where id in (${ids})`);
    expect(await strayCards()).toBe(0);

    // Equal texts are interchangeable rows: two cards alike renamed at once each take one away, then both deleted.
    const twins = await rows(
      t,
      sql`insert into cards (id, wallet_id, created_by, first_name, last_name, nickname, purpose, type, issuer_token, last4,
            masked_number, exp_month, exp_year, billing)
          select gen_random_uuid(), wallet_id, created_by, first_name, last_name, ${`${tag} twin`}, purpose, type,
            issuer_token || '-twin' || n, last4, masked_number, exp_month, exp_year, billing
          from cards, generate_series(1, 2) n where id = ${made[3]!.id} returning id`,
    );
    expect(await cardTotals([`${tag} twin`])).toEqual([2]);
    await Promise.all(
      twins.map((r, i) => t.ctx.db.execute(sql`update cards set nickname = ${`${tag} twin ${i}`} where id = ${r.id}`)),
    );
    expect(await strayCards()).toBe(0);
    expect(await cardTotals([`${tag} twin`, `${tag} twin 1`])).toEqual([2, 1]);
    await t.ctx.db.execute(
      sql`update cards set nickname = ${`${tag} twin`} where id in (${twins[0]!.id}, ${twins[1]!.id})`,
    );
    await t.ctx.db.execute(sql`delete from cards where id in (${twins[0]!.id}, ${twins[1]!.id})`);
    expect(await strayCards()).toBe(0);
    // Found by last4 alone (a text holding no such digits): counted once, and once more if its text has them too.
    const [{ last4 }] = (await rows(t, sql`select last4 from cards where id = ${made[1]!.id}`)) as Array<{
      last4: string;
    }>;
    expect(await cardTotals([last4])).toEqual([expect.any(Number)]);
  });
});

describe('individual search totals', () => {
  it('count what ILIKE over the full name and the email counts, through every kind of change', async () => {
    const a = await newIndividual(t, { first_name: tag, last_name: 'Asante' });
    const b = await newIndividual(t, { first_name: 'Kojo', last_name: `${tag}son` });
    const c = await newIndividual(t, { first_name: 'Esi', last_name: 'Nyarko' });
    expect(await strayUsers()).toBe(0);
    // A few matches are sorted rather than walked to (paging.ts newestFirst): still newest first, paged the same.
    const listed = async (q: string) =>
      (await t.api('GET', `/individuals?${q}`, { token: staff.token })).body.data.map((r: { id: string }) => r.id);
    expect(await listed(`name=${tag}`)).toEqual([b.id, a.id]);
    expect(await listed(`name=${tag}&per_page=1&page=2`)).toEqual([a.id]);
    const emailPart = c.email.split('@')[0]!;
    expect(await individualTotals([tag, tag.toUpperCase(), `${tag} asante`, emailPart, `asante\n${a.email}`])).toEqual([
      2, 2, 1, 1, 0,
    ]);

    await t.ctx.db.execute(sql`update users set last_name = 'Mensah' where id = ${b.id}`);
    await t.ctx.db.execute(sql`update users set email = ${`${tag}@example.com`} where id = ${c.id}`);
    expect(await strayUsers()).toBe(0);
    expect(await individualTotals([tag, emailPart])).toEqual([2, 0]);
    // No longer listed: another role, or deleted.
    await t.ctx.db.execute(sql`update users set role = 'Admin' where id = ${a.id}`);
    await t.ctx.db.execute(sql`update users set deleted_at = now() where id = ${c.id}`);
    expect(await strayUsers()).toBe(0);
    expect(await individualTotals([tag])).toEqual([0]);
  });
});
