// PATCH /api/companies/{id} (directive), PATCH /api/companies/{id}/engine and PUT /api/companies/{id}/treasury:
// every bound, the HUMAN_DIRECTED rule, league from autonomy, creator-only access and the unsigned IP mode.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import {
  CEO_PROMPT_MAX,
  ENGINE_MODEL_IDS,
  MASTER_DIRECTIVE_MAX,
  TOOLS_LIST_MAX,
  TRADE_TOOLS,
} from '../../src/constants.ts';
import { companies } from '../../src/db/schema/companies.ts';
import type { ComputeProvider } from '../../src/domain/compute/provider.ts';
import { startTestApp, useTestApp } from '../helpers/app.ts';
import { companyBody, mintCard, signed } from '../helpers/companies.ts';
import { runCommonRouteTests } from '../helpers/security.ts';
import { treasuryHelpers } from '../helpers/treasuries.ts';

let id: string;
const calls: string[] = [];
const compute: ComputeProvider = {
  kind: 'test',
  startMachine: async () => 'm-1',
  resizeMachine: async (machineId, preset) => {
    calls.push(`resize ${machineId} ${preset}`);
  },
  updateEnv: async (machineId, env) => {
    if (env.MASTER_DIRECTIVE === 'fail') throw new Error('provider down');
    calls.push(`env ${machineId} ${env.AUTONOMY_LEVEL}`);
  },
};

const t = useTestApp({ compute });
beforeAll(async () => {
  await mintCard(t.chain, 1);
  const res = await signed(t.app, 1, 'POST', '/api/companies', companyBody());
  id = res.json().data.id;
});

const patch = (body: unknown, signer = 1) => signed(t.app, signer, 'PATCH', `/api/companies/${id}`, body);
const engine = (body: unknown, signer = 1) => signed(t.app, signer, 'PATCH', `/api/companies/${id}/engine`, body);

describe('PATCH /api/companies/{id}', () => {
  it('sets a directive, which hands control to the human when no level is given', async () => {
    const res = await patch({ ceoPrompt: 'Grow the treasury safely' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: {
        id,
        autonomyLevel: 'HUMAN_DIRECTED',
        ceoPrompt: 'Grow the treasury safely',
        ceoPromptTokens: {},
        league: 'HUMAN',
        engineConfig: null,
        toolkitConfig: null,
        unsignedSettings: [],
      },
    });
  });

  it('keeps an explicit level next to a directive, and moves the league with it', async () => {
    const res = await patch({ ceoPrompt: 'x', autonomyLevel: 'FULLY_AUTONOMOUS' });
    expect(res.json().data).toMatchObject({ autonomyLevel: 'FULLY_AUTONOMOUS', league: 'MACHINE' });
    const cleared = await patch({ ceoPrompt: null });
    expect(cleared.json().data).toMatchObject({ ceoPrompt: null, autonomyLevel: 'FULLY_AUTONOMOUS' });
  });

  it('accepts every bound just inside', async () => {
    const tools = Array.from({ length: TOOLS_LIST_MAX }, (_, i) => `tool_${i}`);
    const engineConfig = { briefGeneration: ENGINE_MODEL_IDS[0], jsonExtraction: ENGINE_MODEL_IDS[7] };
    const res = await patch({
      ceoPrompt: 'p'.repeat(CEO_PROMPT_MAX),
      engineConfig,
      toolkitConfig: { enabledTools: tools, disabledTools: tools },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.engineConfig).toEqual(engineConfig);
    const reset = await patch({ engineConfig: null, toolkitConfig: null });
    expect(reset.json().data).toMatchObject({ engineConfig: null, toolkitConfig: null });
  });

  it.each([
    [{ ceoPrompt: 'p'.repeat(CEO_PROMPT_MAX + 1) }, 'body.ceoPrompt'],
    [{ autonomyLevel: 'ROGUE' }, 'body.autonomyLevel'],
    [{ engineConfig: { briefGeneration: 'openai/gpt-2' } }, 'body.engineConfig.briefGeneration'],
    [{ engineConfig: { planning: ENGINE_MODEL_IDS[0] } }, 'body.engineConfig.planning'],
    [
      { toolkitConfig: { enabledTools: Array.from({ length: TOOLS_LIST_MAX + 1 }, (_, i) => `t${i}`) } },
      'body.toolkitConfig.enabledTools',
    ],
    [
      { toolkitConfig: { disabledTools: Array.from({ length: TOOLS_LIST_MAX + 1 }, (_, i) => `t${i}`) } },
      'body.toolkitConfig.disabledTools',
    ],
    [{ league: 'HUMAN' }, 'body.league'],
  ])('answers 400 VALIDATION_ERROR for %o', async (body, path) => {
    const res = await patch(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0].path).toBe(path);
  });

  it('answers 403 FORBIDDEN to a signer other than the creator and 404 for an unknown company', async () => {
    expect((await patch({ ceoPrompt: 'mine now' }, 2)).statusCode).toBe(403);
    expect((await signed(t.app, 1, 'PATCH', '/api/companies/unknown', { ceoPrompt: 'x' })).statusCode).toBe(404);
  });

  runCommonRouteTests(
    () => ({ app: t.app, now: Date.now }),
    () => ({ method: 'PATCH', url: `/api/companies/${id}`, body: { ceoPrompt: 'x' } }),
  );
});

describe('PATCH /api/companies/{id} with COMPANY_PATCH_AUTH=ip', () => {
  it('accepts an unsigned directive while the agents cannot trade, and asks for the signature once they can', async () => {
    const ip = await startTestApp({ database: t.database, chain: t.chain, env: { COMPANY_PATCH_AUTH: 'ip' } });
    const unsigned = (payload: Record<string, unknown>) =>
      ip.app.inject({ method: 'PATCH', url: `/api/companies/${id}`, payload });
    try {
      // Trading and staking tools are on by default: 401, naming why.
      const refused = await unsigned({ autonomyLevel: 'STRATEGY_AUTONOMOUS' });
      expect(refused.statusCode).toBe(401);
      expect(refused.json().error).toMatchObject({
        code: 'UNAUTHORIZED',
        message: expect.stringContaining('trading or staking tools are enabled'),
      });
      const off = { disabledTools: [...TRADE_TOOLS] };
      expect((await signed(ip.app, 1, 'PATCH', `/api/companies/${id}`, { toolkitConfig: off })).statusCode).toBe(200);
      const res = await unsigned({ autonomyLevel: 'STRATEGY_AUTONOMOUS' });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ autonomyLevel: 'STRATEGY_AUTONOMOUS', league: 'MACHINE' });
      // Just one trading tool back on is enough to need the signature.
      expect((await unsigned({ toolkitConfig: { disabledTools: off.disabledTools.slice(1) } })).statusCode).toBe(401);
      // A bad signature is refused as such, not taken as unsigned.
      const forged = await ip.app.inject({
        method: 'PATCH',
        url: `/api/companies/${id}`,
        headers: { authorization: `Wallet ${devAccount(1).address}:1:0x00` },
        payload: { ceoPrompt: 'x' },
      });
      expect(forged.statusCode).toBe(401);
    } finally {
      await signed(t.app, 1, 'PATCH', `/api/companies/${id}`, { toolkitConfig: null });
      await ip.close();
    }
  });
});

describe('PATCH /api/companies/{id}/engine', () => {
  it('reports skipped machine steps while the company has no machine', async () => {
    const res = await engine({ enginePreset: 'PREMIUM', masterDirective: 'm'.repeat(MASTER_DIRECTIVE_MAX) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      autonomyLevel: 'STRATEGY_AUTONOMOUS',
      masterDirective: 'm'.repeat(MASTER_DIRECTIVE_MAX),
      dailyModelSpendCap: '100',
      masterDirectiveTokens: {},
      machineResults: { resize: 'skipped', envUpdate: 'skipped' },
    });
  });

  it('resizes the machine and updates its environment when one exists', async () => {
    await t.database.db.update(companies).set({ machineId: 'm-1' }).where(eq(companies.id, id));
    const res = await engine({ enginePreset: 'BUDGET', autonomyLevel: 'HUMAN_DIRECTED' });
    expect(res.json().data.machineResults).toEqual({ resize: 'ok', envUpdate: 'ok' });
    expect(calls).toEqual(['resize m-1 BUDGET', 'env m-1 HUMAN_DIRECTED']);
    const failed = await engine({ masterDirective: 'fail' });
    expect(failed.json().data.machineResults).toEqual({ resize: 'skipped', envUpdate: 'failed' });
    const company = await t.app.inject({ method: 'GET', url: `/api/companies/${id}` });
    expect(company.json().data).toMatchObject({ enginePreset: 'BUDGET', league: 'HUMAN', masterDirective: 'fail' });
  });

  it.each([
    [{}, 'body'],
    [{ enginePreset: 'ULTRA' }, 'body.enginePreset'],
    [{ masterDirective: 'm'.repeat(MASTER_DIRECTIVE_MAX + 1) }, 'body.masterDirective'],
    [{ autonomyLevel: 'NONE' }, 'body.autonomyLevel'],
  ])('answers 400 VALIDATION_ERROR for %o', async (body, path) => {
    const res = await engine(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(res.json().error.details[0].path).toBe(path);
  });

  it('answers 403 and 404', async () => {
    expect((await engine({ enginePreset: 'BUDGET' }, 2)).statusCode).toBe(403);
    expect(
      (await signed(t.app, 1, 'PATCH', '/api/companies/unknown/engine', { enginePreset: 'BUDGET' })).statusCode,
    ).toBe(404);
  });

  runCommonRouteTests(
    () => ({ app: t.app, now: Date.now }),
    () => ({ method: 'PATCH', url: `/api/companies/${id}/engine`, body: { enginePreset: 'BALANCED' } }),
  );
});

describe('PUT /api/companies/{id}/treasury', () => {
  const put = (body: unknown, signer = 1) => signed(t.app, signer, 'PUT', `/api/companies/${id}/treasury`, body);
  const tr = treasuryHelpers(t);

  it("stores the treasury address checksummed, proven by the treasury's acceptance", async () => {
    const res = await put({
      treasuryAddress: devAccount(3).address.toLowerCase(),
      acceptance: await tr.accept(devAccount(3), id),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ treasuryAddress: devAccount(3).address, treasuryStatus: 'PROVEN' });
    expect(Date.parse(res.json().data.treasuryProvenAt)).toBeGreaterThan(0);
  });

  it("takes the creator's own wallet without a second signature", async () => {
    const res = await put({ treasuryAddress: devAccount(1).address });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ treasuryAddress: devAccount(1).address, treasuryStatus: 'PROVEN' });
  });

  it('refuses a malformed acceptance, each bound just outside', async () => {
    const good = await tr.accept(devAccount(3), id);
    for (const acceptance of [
      { ...good, deadline: 0 },
      { ...good, deadline: 2 ** 40 + 1 },
      { ...good, deadline: 1.5 },
      { ...good, signature: '0x' },
      { ...good, signature: `0x${'ab'.repeat(2049)}` },
      { ...good, signature: `${good.signature}0` },
      { deadline: good.deadline },
      { ...good, extra: 1 },
    ]) {
      const res = await put({ treasuryAddress: devAccount(3).address, acceptance });
      expect([res.statusCode, res.json().error.code], JSON.stringify(acceptance)).toEqual([400, 'VALIDATION_ERROR']);
    }
    // Just inside: the longest signature the schema takes is a valid shape, refused only as not the treasury's.
    const res = await put({
      treasuryAddress: devAccount(3).address,
      acceptance: { ...good, signature: `0x${'ab'.repeat(2048)}` },
    });
    expect([res.statusCode, res.json().error.code]).toEqual([403, 'FORBIDDEN']);
  });

  it('refuses the zero address, a malformed address and extra fields', async () => {
    const zero = await put({ treasuryAddress: `0x${'0'.repeat(40)}` });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().error.code).toBe('BAD_REQUEST');
    expect((await put({ treasuryAddress: '0xabc' })).json().error.code).toBe('VALIDATION_ERROR');
    expect((await put({ treasuryAddress: devAccount(3).address, x: 1 })).json().error.code).toBe('VALIDATION_ERROR');
  });

  it('accepts lowercase, uppercase and checksummed spellings, and refuses a wrong EIP-55 checksum', async () => {
    const address = devAccount(3).address;
    const hex = address.slice(2);
    for (const spelled of [address, address.toLowerCase(), `0x${hex.toUpperCase()}`]) {
      const res = await put({ treasuryAddress: spelled, acceptance: await tr.accept(devAccount(3), id) });
      expect(res.statusCode, spelled).toBe(200);
      expect(res.json().data.treasuryAddress).toBe(address);
    }
    // Every letter's case flipped: mixed case whose checksum is wrong, as the staking routes refuse it too.
    const flipped = [...hex].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
    const res = await put({ treasuryAddress: `0x${flipped}`, acceptance: await tr.accept(devAccount(3), id) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'body.treasuryAddress', message: expect.stringContaining('EIP-55') }],
    });
  });

  it('answers 403 to another signer', async () => {
    expect((await put({ treasuryAddress: devAccount(2).address }, 2)).statusCode).toBe(403);
  });

  runCommonRouteTests(
    () => ({ app: t.app, now: Date.now }),
    () => ({
      method: 'PUT',
      url: `/api/companies/${id}/treasury`,
      body: { treasuryAddress: devAccount(3).address },
    }),
  );
});
