// Attack: take another company's id as one's slug. Lookups accept an id or a slug, so a squatter whose slug is the
// victim's id would be found in the victim's place: its page shown for the victim's id, and the victim's own writes
// by id answering 403 (the squatter's creator is not the signer).
import { readFileSync } from 'node:fs';
import { createId } from '@paralleldrive/cuid2';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { resolveCompanyRefs } from '../../src/domain/events/filters.ts';
import { useTestApp } from '../helpers/app.ts';
import { companyBody, mintCard, signed } from '../helpers/companies.ts';

const t = useTestApp();

async function createCompany(account: number, body = companyBody()) {
  await mintCard(t.chain, account);
  return signed(t.app, account, 'POST', '/api/companies', body);
}

describe('slug takeover', () => {
  it("refuses a slug equal to another company's id, and the id still finds its company", async () => {
    const victim = (await createCompany(1)).json().data;
    const squat = await createCompany(2, companyBody({ slug: victim.id }));
    expect(squat.statusCode).toBe(400);
    expect(squat.json().error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'body.slug', message: expect.stringContaining('company id') }],
    });
    const page = await t.app.inject({ method: 'GET', url: `/api/companies/${victim.id}` });
    expect(page.json().data.id).toBe(victim.id);
    const write = await signed(t.app, 1, 'PUT', `/api/companies/${victim.id}/treasury`, {
      treasuryAddress: devAccount(1).address,
    });
    expect(write.statusCode).toBe(200);
  });

  it('refuses any slug with the shape of an id, even one no company has yet', async () => {
    const res = await createCompany(3, companyBody({ slug: createId() }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
  });

  it('never derives an id-shaped slug from a name', async () => {
    const name = createId();
    const res = await createCompany(4, companyBody({ name }));
    expect(res.statusCode).toBe(201);
    expect(res.json().data.slug).not.toBe(name);
    expect(res.json().data.slug.startsWith(name)).toBe(true);
  });

  it('prefers the id when a slug already collides (rows written before the rule), and the migration renames it', async () => {
    const victim = (await createCompany(5)).json().data;
    const squatter = (await createCompany(6)).json().data;
    // As an old database may hold it: the squatter's slug is the victim's id.
    await t.database.db.update(companies).set({ slug: victim.id }).where(eq(companies.id, squatter.id));
    for (let i = 0; i < 5; i++) {
      const page = await t.app.inject({ method: 'GET', url: `/api/companies/${victim.id}` });
      expect(page.json().data.id).toBe(victim.id);
      const decisions = await t.app.inject({ method: 'GET', url: `/api/companies/${victim.id}/decisions` });
      expect(decisions.json().data.company.id).toBe(victim.id);
    }
    // The event stream's filter means the victim alone, not the squatter too.
    expect([...(await resolveCompanyRefs(t.database.db, [victim.id]))]).toEqual([victim.id]);
    const write = await signed(t.app, 5, 'PUT', `/api/companies/${victim.id}/treasury`, {
      treasuryAddress: devAccount(5).address,
    });
    expect(write.statusCode).toBe(200);

    const migration = readFileSync(
      new URL('../../src/db/migrations/0010_slug_id_collisions.sql', import.meta.url),
      'utf8',
    );
    await t.database.db.execute(sql.raw(migration));
    const [renamed] = await t.database.db.select().from(companies).where(eq(companies.id, squatter.id));
    expect(renamed!.slug).not.toBe(victim.id);
    expect(renamed!.slug.startsWith(`${victim.id}-`)).toBe(true);
    const [untouched] = await t.database.db.select().from(companies).where(eq(companies.id, victim.id));
    expect(untouched!.slug).toBe(victim.slug);
  });
});
