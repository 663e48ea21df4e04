import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from './support/app';
import { type Actor, newCompany, newCompanyMember, newIndividual, newStaff } from './support/actors';
import { newCard, relogin, rows, setClock } from './support/cards';
import { fundWallet } from './support/money';
import { expectAgreeing } from './support/settled';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const DAY = 86_400_000;
const dayOf = (d: Date) => d.toISOString().slice(0, 10);
const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((c) => c.id).sort();
const sorted = (...xs: string[]) => [...xs].sort();

describe('GET /cards (staff)', () => {
  it('is for staff only (403 for customers)', async () => {
    const a = await newIndividual(t);
    expect((await t.api('GET', '/cards', { token: a.token })).status).toBe(403);
    expect((await t.api('GET', '/cards')).status).toBe(401);
  });

  it('filters by date, owner kind, purpose, type, activity, text, owner, deletion, flag and creator, and pages', async () => {
    // midday UTC, so the day filters cannot straddle midnight
    const today = t.clock.now();
    setClock(
      t,
      new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) + DAY + 12 * 3_600_000),
    );
    const staff = await newStaff(t);
    const tag = `Q${randomUUID().slice(0, 8)}`;
    const ind = await newIndividual(t, { first_name: 'Kofi', last_name: `Mensah${tag}` });
    const company = await newCompany(t);
    const member = await newCompanyMember(t, company);
    await fundWallet(t, ind.id, 100_000);
    await fundWallet(t, company.companyId!, 100_000);
    const holder = { first_name: 'Kofi', last_name: `Mensah${tag}` };

    const day1 = t.clock.now();
    const c1 = (await newCard(t, ind, { ...holder, nickname: `${tag} alpha`, purpose: 'media', type: 'premium' })).card;
    setClock(t, new Date(day1.getTime() + 2 * DAY));
    for (const x of [ind, company, member, staff]) await relogin(t, x);
    const day3 = t.clock.now();
    const c2 = (
      await newCard(t, ind, {
        ...holder,
        nickname: `${tag} bravo`,
        purpose: 'general',
        type: 'basic',
        card_amount: '5.00',
      })
    ).card;
    const c3 = (await newCard(t, ind, { ...holder, nickname: `${tag} charlie`, purpose: 'media', type: 'premium' }))
      .card;
    const c4 = (await newCard(t, ind, { ...holder, nickname: `${tag} delta`, purpose: 'general', type: 'premium' }))
      .card;
    const c5 = (
      await newCard(t, member, { nickname: `${tag} echo`, first_name: 'Esi', last_name: 'Badu', purpose: 'general' })
    ).card;
    const c6 = (
      await newCard(t, company, {
        nickname: `${tag} foxtrot`,
        first_name: 'Ama',
        last_name: 'Owusu',
        purpose: 'media',
        type: 'basic',
      })
    ).card;
    expect((await t.api('DELETE', `/cards/${c3.id}`, { token: ind.token })).status).toBe(202);
    expect(
      (await t.api('POST', `/cards/change-status/${c4.id}`, { token: ind.token, body: { status: 'deactivate' } }))
        .status,
    ).toBe(202);
    expect(
      (await t.api('POST', `/cards/flag/${c4.id}`, { token: staff.token, body: { reason: 'Review' } })).status,
    ).toBe(200);

    const list = (q: string) => t.api('GET', `/cards?${q}`, { token: staff.token });
    const I = `individual_id=${ind.id}`;
    const cases: [string, string[]][] = [
      [I, [c1.id, c2.id, c3.id, c4.id]],
      [`company_id=${company.companyId}`, [c5.id, c6.id]],
      [`${I}&start_date=${dayOf(day3)}`, [c2.id, c3.id, c4.id]],
      [`${I}&end_date=${dayOf(day1)}`, [c1.id]],
      [`${I}&start_date=${dayOf(day1)}&end_date=${dayOf(day1)}`, [c1.id]],
      [`search=${tag}&for=company`, [c5.id, c6.id]],
      [`search=${tag}&for=individual`, [c1.id, c2.id, c3.id, c4.id]],
      [`${I}&purpose=media`, [c1.id, c3.id]],
      [`search=${tag}&purpose=general`, [c2.id, c4.id, c5.id]],
      [`${I}&type=basic`, [c2.id]],
      [`search=${tag}&type=basic`, [c2.id, c6.id]],
      [`${I}&is_active=true`, [c1.id, c2.id]],
      [`${I}&is_active=false`, [c3.id, c4.id]],
      [`search=${tag.toLowerCase()}%20BRAVO`, [c2.id]],
      [`search=Mensah${tag}`, [c1.id, c2.id, c3.id, c4.id]],
      [`search=${encodeURIComponent(`Kofi Mensah${tag}`)}`, [c1.id, c2.id, c3.id, c4.id]],
      [`${I}&search=${c2.last4}`, [c2.id]],
      [`${I}&deleted_only=true`, [c3.id]],
      [`${I}&flagged_only=true`, [c4.id]],
      [`search=${tag}&flagged=true`, [c4.id]],
      [`created_by=${member.id}`, [c5.id]],
      [`created_by=${company.id}&search=${tag}`, [c6.id]],
    ];
    for (const [q, want] of cases) {
      const res = await list(q);
      expect(res.status, q).toBe(200);
      expect(ids(res), q).toEqual(sorted(...want));
      expect(res.body.total, q).toBe(want.length);
    }
    expect((await list(`${I}&purpose=gold`)).status).toBe(422);

    const p1 = await list(`${I}&per_page=3`);
    expect(p1.body).toMatchObject({ total: 4, per_page: 3, current_page: 1, last_page: 2, from: 1, to: 3 });
    expect(p1.body.links.next).toContain('page=2');
    const p2 = await list(`${I}&per_page=3&page=2`);
    expect(p2.body).toMatchObject({ total: 4, current_page: 2, from: 4, to: 4 });
    expect(sorted(...ids(p1), ...ids(p2))).toEqual(sorted(c1.id, c2.id, c3.id, c4.id));
    // newest first, with owner and creator
    expect(p1.body.data[p1.body.data.length - 1].id).not.toBe(c1.id);
    expect(p2.body.data[0].id).toBe(c1.id);
    const row5 = (await list(`created_by=${member.id}`)).body.data[0];
    expect(row5).toMatchObject({
      owner_type: 'Company',
      owner_name: 'Volta Trading Ltd',
      created_by: 'Esi Badu',
      cardholder: 'Esi Badu',
      nickname: `${tag} echo`,
    });
    expect((await list(`${I}&deleted_only=true`)).body.data[0]).toMatchObject({
      is_deleted: true,
      state: 'Deactivated',
    });
    expect((await list(`${I}&flagged_only=true`)).body.data[0]).toMatchObject({
      flagged: true,
      flag_reason: 'Review',
      state: 'Deactivated',
    });
  });
});

describe('the staff card list total', () => {
  it('is kept by owner kind, purpose, type, activity and deletion as cards come, change and go, as counting says', async () => {
    const staff = await newStaff(t);
    const total = async (q: string) => {
      const res = await t.api('GET', `/cards?per_page=1${q}`, { token: staff.token });
      expect(res.status, q).toBe(200);
      return res.body.total as number;
    };
    // Each filter the kept count answers, as the API takes it and as SQL counts it.
    const filters: [string, string][] = [
      ['', 'true'],
      ['&for=individual', 'co.id is null'],
      ['&for=company', 'co.id is not null'],
      ['&purpose=media', "ca.purpose = 'media'"],
      ['&purpose=general', "ca.purpose = 'general'"],
      ['&type=basic', "ca.type = 'basic'"],
      ['&is_active=true', "ca.state = 'Active' and ca.deleted_at is null"],
      ['&is_active=false', "not (ca.state = 'Active' and ca.deleted_at is null)"],
      ['&deleted_only=true', 'ca.deleted_at is not null'],
      [
        '&for=company&purpose=media&type=premium&is_active=true',
        "co.id is not null and ca.purpose = 'media' and ca.type = 'premium' and ca.state = 'Active' and ca.deleted_at is null",
      ],
      ['&for=individual&deleted_only=true&is_active=false', 'co.id is null and ca.deleted_at is not null'],
    ];
    const listed = async () => Promise.all(filters.map(([q]) => total(q)));
    const counted = async () => {
      const [r] = await rows(
        t,
        sql.raw(
          `select ${filters.map(([, c], i) => `count(*) filter (where ${c})::int as f${i}`).join(', ')}
           from cards ca left join companies co on co.id = ca.wallet_id`,
        ),
      );
      return filters.map((_, i) => r![`f${i}`] as number);
    };
    await expectAgreeing(listed, counted);

    const ind = await newIndividual(t);
    const company = await newCompany(t);
    await fundWallet(t, ind.id, 100_000);
    await fundWallet(t, company.companyId!, 100_000);
    const mine = (await newCard(t, ind, { purpose: 'media', type: 'premium' })).card;
    const theirs = (await newCard(t, company, { purpose: 'general', type: 'premium' })).card;
    await newCard(t, company, { purpose: 'media', type: 'basic' });
    await expectAgreeing(listed, counted);
    // frozen, then deleted: a deleted card stays in the list and its total
    const frozen = await t.api('POST', `/cards/change-status/${theirs.id}`, {
      token: company.token,
      body: { status: 'deactivate' },
    });
    expect(frozen.status).toBe(202);
    await expectAgreeing(listed, counted);
    expect((await t.api('DELETE', `/cards/${mine.id}`, { token: ind.token })).status).toBe(202);
    await expectAgreeing(listed, counted);

    // Several cards in one statement, moved and removed (the product does neither: this keeps the count honest).
    const copies = await rows(
      t,
      sql`insert into cards (id, wallet_id, created_by, first_name, last_name, nickname, purpose, type, issuer_token, last4,
            masked_number, exp_month, exp_year, billing)
          select gen_random_uuid(), wallet_id, created_by, first_name, last_name, nickname, purpose, type, issuer_token || '-copy' || n,
            last4, masked_number, exp_month, exp_year, billing
          from cards, generate_series(1, 3) n where id = ${mine.id} returning id`,
    );
    expect(copies).toHaveLength(3);
    await expectAgreeing(listed, counted);
    const ids = sql.join(
      copies.map((r) => sql`${r.id}`),
      sql`, `,
    );
    await t.ctx.db.execute(
      sql`update cards set wallet_id = ${company.companyId}, purpose = 'general', state = 'Deactivated' where id in (${ids})`,
    );
    await expectAgreeing(listed, counted);
    // an update of other columns, or of these to the same values, changes no count
    await t.ctx.db.execute(sql`update cards set state = state, nickname = nickname || '!' where id in (${ids})`);
    await expectAgreeing(listed, counted);
    await t.ctx.db.execute(sql`delete from cards where id in (${ids})`);
    await expectAgreeing(listed, counted);

    // With any other filter the cards are counted, and agree.
    const media = async () =>
      (
        await rows(
          t,
          sql`select count(*)::int as n from cards ca join companies co on co.id = ca.wallet_id
              where ca.purpose = 'media' and ca.flagged`,
        )
      )[0]!.n;
    await expectAgreeing(() => total('&for=company&purpose=media&flagged_only=true'), media);
  });
});

describe('GET /cards/individual/{id} and /cards/company/{id}', () => {
  it("lists the caller's own live cards only; anyone else's is 404; staff see any", async () => {
    const staff = await newStaff(t);
    const a = await newIndividual(t);
    const b = await newIndividual(t);
    const company = await newCompany(t);
    const member = await newCompanyMember(t, company);
    for (const w of [a.id, b.id, company.companyId!]) await fundWallet(t, w, 50_000);
    const a1 = (await newCard(t, a, { purpose: 'media' })).card;
    const a2 = (await newCard(t, a, { purpose: 'general', type: 'basic' })).card;
    const gone = (await newCard(t, a, { purpose: 'general' })).card;
    await t.api('DELETE', `/cards/${gone.id}`, { token: a.token });
    const k1 = (await newCard(t, member, {})).card;
    await newCard(t, b, {});

    const get = (who: Actor, path: string) => t.api('GET', path, { token: who.token });
    expect(ids(await get(a, `/cards/individual/${a.id}`))).toEqual(sorted(a1.id, a2.id));
    expect(ids(await get(a, `/cards/individual/${a.id}?purpose=general`))).toEqual([a2.id]);
    expect(ids(await get(a, `/cards/individual/${a.id}?type=premium`))).toEqual([a1.id]);
    expect(ids(await get(a, `/cards/individual/${a.id}?search=${a2.last4}`))).toEqual([a2.id]);
    for (const who of [company, member])
      expect(ids(await get(who, `/cards/company/${company.companyId}`))).toEqual([k1.id]);
    expect(ids(await get(staff, `/cards/individual/${a.id}`))).toEqual(sorted(a1.id, a2.id));
    expect(ids(await get(staff, `/cards/company/${company.companyId}`))).toEqual([k1.id]);

    for (const [who, path] of [
      [b, `/cards/individual/${a.id}`],
      [a, `/cards/company/${company.companyId}`],
      [member, `/cards/individual/${a.id}`],
      [a, `/cards/company/${a.id}`],
      [company, `/cards/individual/${company.companyId}`],
    ] as const) {
      const res = await get(who, path);
      expect(res.status, path).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain(a1.id);
    }
  });
});
