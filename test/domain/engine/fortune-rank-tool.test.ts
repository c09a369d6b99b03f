// The read_fortune_rank tool tells an agent its company's place on the Fortune List: the companies with a higher
// platform score, plus one. (Its first form counted each company against itself and answered rank 1 for all.)
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { companies } from '../../../src/db/schema/companies.ts';
import { toolNamed } from '../../../src/domain/engine/tools.ts';
import { useTestApp } from '../../helpers/app.ts';
import { insertCompany } from '../../helpers/events.ts';

const t = useTestApp();

async function rankOf(id: string) {
  const tool = toolNamed('read_fortune_rank')!;
  const company = { id, treasuryAddress: null, tokenAddress: null, tokenStatus: 'PRE_PUBLIC', toolkitConfig: null };
  return tool.run({ deps: t.container, company, role: 'COO', args: {} });
}

describe('read_fortune_rank', () => {
  it('counts the companies scored above, ties sharing a rank', async () => {
    const scored: [string, number][] = [
      ['rank-a', 80],
      ['rank-b', 60],
      ['rank-c', 60],
      ['rank-d', 10],
    ];
    const ids: string[] = [];
    for (const [slug, score] of scored) {
      const { id } = await insertCompany(t.database.db, slug);
      await t.database.db.update(companies).set({ platformScore: score }).where(eq(companies.id, id));
      ids.push(id);
    }
    expect(await rankOf(ids[0]!)).toBe('rank 1, platform score 80');
    expect(await rankOf(ids[1]!)).toBe('rank 2, platform score 60');
    expect(await rankOf(ids[2]!)).toBe('rank 2, platform score 60');
    expect(await rankOf(ids[3]!)).toBe('rank 4, platform score 10');
  });
});
