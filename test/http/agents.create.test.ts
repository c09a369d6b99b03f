// POST /api/agents: the stand-alone agent it creates, every bound of the body just inside and just outside, the
// role that follows the persona, and the shared wallet-signature security suite.
import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import {
  AGENT_DESCRIPTION_MAX,
  AGENT_NAME_MAX,
  AGENT_SKILLS_MAX,
  AGENT_SKILLS_MIN,
  PERSONA_ROLE_MAX,
  PERSONA_TEXT_MAX,
  SKILL_MAX_LENGTH,
  STRATEGY_PRESETS,
  STRATEGY_TYPE_MAX,
} from '../../src/constants.ts';
import { agents } from '../../src/db/schema/agents.ts';
import { VALIDATION_DETAILS_MAX } from '../../src/http/errors.ts';
import { useTestApp } from '../helpers/app.ts';
import {
  type HttpMethod,
  type MessageSigner,
  runCommonRouteTests,
  sendSigned,
  serializeBody,
  signedRequest,
} from '../helpers/security.ts';

const alice = devAccount(1);

const t = useTestApp({ env: { RATE_LIMIT_MAX: '100000' } });

// Each test starts with alice's daily allowance of stand-alone agents free (test/attacks/agent-list-spam.test.ts
// covers the allowance): her earlier agents are dated two days back.
beforeEach(async () => {
  await t.database.db
    .update(agents)
    .set({ createdAt: sql`now() - interval '2 days'` })
    .where(eq(agents.creatorAddress, alice.address));
});

// Each signed call gets its own timestamp, so two identical calls are never refused as a replay.
const signed = (account: MessageSigner, method: HttpMethod, url: string, body?: unknown) =>
  sendSigned({ app: t.app, now: t.container.now }, account, method, url, body);

const validBody = () => ({
  name: 'Yield Scout',
  description: 'Finds yield.',
  persona: { role: 'CFO', description: 'Careful with money.' },
  skills: ['defi', 'risk'],
  strategy: { type: 'yield-farming', preset: 'CONSERVATIVE' },
});
type Body = Record<string, any>;
const create = (body: unknown, account: MessageSigner = alice) => signed(account, 'POST', '/api/agents', body);

async function expectCreated(body: unknown) {
  const res = await create(body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

async function expectValidationError(body: unknown, path?: string) {
  const res = await create(body);
  expect(res.statusCode, res.body).toBe(400);
  const json = res.json();
  expect(json.success).toBe(false);
  expect(json.error.code).toBe('VALIDATION_ERROR');
  if (path) expect(json.error.details.map((d: { path: string }) => d.path)).toContain(path);
  return json.error;
}

describe('POST /api/agents', () => {
  it('reports every invalid field at once, not only the first', async () => {
    const error = await expectValidationError({
      name: '',
      persona: { role: 'CFO', description: 'x'.repeat(501) },
      skills: [],
      strategy: { type: 'yield', preset: 'RECKLESS' },
      extra: 1,
    });
    const paths = error.details.map((d: { path: string }) => d.path);
    for (const path of ['body.name', 'body.persona.description', 'body.skills', 'body.strategy.preset', 'body.extra']) {
      expect(paths, path).toContain(path);
    }
  });

  it('lists at most VALIDATION_DETAILS_MAX details however many fields are wrong', async () => {
    const error = await expectValidationError({
      ...validBody(),
      skills: Array.from({ length: 20 }, () => ' '),
      ...Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`extra${i}`, i])),
    });
    expect(error.details).toHaveLength(VALIDATION_DETAILS_MAX);
  });

  it('creates a stand-alone PENDING agent owned by the signer: 201 with id, name, status, creatorAddress, createdAt', async () => {
    const before = Date.now();
    const res = await create(validBody());
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'success']);
    expect(body.success).toBe(true);
    expect(Object.keys(body.data).sort()).toEqual(['createdAt', 'creatorAddress', 'id', 'name', 'status']);
    expect(body.data).toMatchObject({ name: 'Yield Scout', status: 'PENDING', creatorAddress: alice.address });
    expect(body.data.id).toMatch(/^[a-z0-9]{20,32}$/);
    expect(new Date(body.data.createdAt).toISOString()).toBe(body.data.createdAt);
    expect(Date.parse(body.data.createdAt)).toBeGreaterThanOrEqual(before - 5000);

    const detail = (await t.app.inject({ method: 'GET', url: `/api/agents/${body.data.id}` })).json().data;
    expect(detail).toMatchObject({
      id: body.data.id,
      name: 'Yield Scout',
      description: 'Finds yield.',
      role: 'CFO',
      status: 'PENDING',
      companyId: null,
      company: null,
      creatorAddress: alice.address,
      onChainAddress: null,
      walletAddress: null,
      erc8004Id: null,
      identity: null,
      persona: { role: 'CFO', description: 'Careful with money.' },
      skills: ['defi', 'risk'],
      strategy: { type: 'yield-farming', preset: 'CONSERVATIVE' },
      decisionsCount: 0,
      lastActiveAt: null,
      createdAt: body.data.createdAt,
    });
  });

  it('stores the creator checksummed even when the Authorization header writes it in lowercase', async () => {
    const body = validBody();
    // Dated apart from the other signed calls of this file (they use now - 0..249 s), so it is never a replay.
    const ts = Math.floor(t.container.now() / 1000) - 290;
    const headers = await signedRequest(alice, 'POST', '/api/agents', body, ts);
    headers.authorization = headers.authorization!.replace(alice.address, alice.address.toLowerCase());
    const res = await t.app.inject({ method: 'POST', url: '/api/agents', headers, payload: serializeBody(body) });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.creatorAddress).toBe(alice.address);
  });

  it('sets role from persona.role when it names a C-suite role in any case, else null', async () => {
    const cases: [string, string | null][] = [
      ['CFO', 'CFO'],
      ['ciso', 'CISO'],
      [' Cro ', 'CRO'],
      ['Chief Financial Officer', null],
      ['CEO', null],
      ['market maker', null],
    ];
    for (const [personaRole, role] of cases) {
      const { id } = await expectCreated({ ...validBody(), persona: { role: personaRole, description: '' } });
      const detail = (await t.app.inject({ method: 'GET', url: `/api/agents/${id}` })).json().data;
      expect(detail.role, personaRole).toBe(role);
      expect(detail.persona.role).toBe(personaRole);
    }
  });

  it('accepts a body without description, and then shows description null', async () => {
    const { description: _omitted, ...body } = validBody();
    const { id } = await expectCreated(body);
    const detail = (await t.app.inject({ method: 'GET', url: `/api/agents/${id}` })).json().data;
    expect(detail.description).toBeNull();
  });

  it('gives every agent its own id', async () => {
    const a = await expectCreated(validBody());
    const b = await expectCreated(validBody());
    expect(a.id).not.toBe(b.id);
  });

  describe('bounds', () => {
    it(`name: 1 and ${AGENT_NAME_MAX} characters are accepted; 0, ${AGENT_NAME_MAX + 1} and blank are not`, async () => {
      expect((await expectCreated({ ...validBody(), name: 'a' })).name).toBe('a');
      expect((await expectCreated({ ...validBody(), name: 'n'.repeat(AGENT_NAME_MAX) })).name).toHaveLength(
        AGENT_NAME_MAX,
      );
      await expectValidationError({ ...validBody(), name: '' }, 'body.name');
      await expectValidationError({ ...validBody(), name: 'n'.repeat(AGENT_NAME_MAX + 1) }, 'body.name');
      await expectValidationError({ ...validBody(), name: '   ' }, 'body.name');
    });

    it(`name counts characters, not bytes: ${AGENT_NAME_MAX} non-ASCII characters are accepted`, async () => {
      expect((await expectCreated({ ...validBody(), name: 'é'.repeat(AGENT_NAME_MAX) })).name).toBe(
        'é'.repeat(AGENT_NAME_MAX),
      );
    });

    it(`description: ${AGENT_DESCRIPTION_MAX} characters and empty are accepted; ${AGENT_DESCRIPTION_MAX + 1} is not`, async () => {
      await expectCreated({ ...validBody(), description: 'd'.repeat(AGENT_DESCRIPTION_MAX) });
      await expectCreated({ ...validBody(), description: '' });
      await expectValidationError(
        { ...validBody(), description: 'd'.repeat(AGENT_DESCRIPTION_MAX + 1) },
        'body.description',
      );
      await expectValidationError({ ...validBody(), description: null }, 'body.description');
    });

    it(`skills: ${AGENT_SKILLS_MIN} and ${AGENT_SKILLS_MAX} items are accepted; 0 and ${AGENT_SKILLS_MAX + 1} are not`, async () => {
      await expectCreated({ ...validBody(), skills: ['one'] });
      await expectCreated({ ...validBody(), skills: Array.from({ length: AGENT_SKILLS_MAX }, (_, i) => `s${i}`) });
      await expectValidationError({ ...validBody(), skills: [] }, 'body.skills');
      await expectValidationError(
        { ...validBody(), skills: Array.from({ length: AGENT_SKILLS_MAX + 1 }, (_, i) => `s${i}`) },
        'body.skills',
      );
    });

    it(`a skill: 1 and ${SKILL_MAX_LENGTH} characters are accepted; empty, blank, ${SKILL_MAX_LENGTH + 1} and non-strings are not`, async () => {
      await expectCreated({ ...validBody(), skills: ['x', 's'.repeat(SKILL_MAX_LENGTH)] });
      await expectValidationError({ ...validBody(), skills: ['ok', ''] }, 'body.skills.1');
      await expectValidationError({ ...validBody(), skills: [' '] }, 'body.skills.0');
      await expectValidationError({ ...validBody(), skills: ['s'.repeat(SKILL_MAX_LENGTH + 1)] }, 'body.skills.0');
      await expectValidationError({ ...validBody(), skills: [42] }, 'body.skills.0');
      await expectValidationError({ ...validBody(), skills: 'defi' }, 'body.skills');
    });

    it(`persona: role 1-${PERSONA_ROLE_MAX} characters, description at most ${PERSONA_TEXT_MAX}; both required`, async () => {
      await expectCreated({ ...validBody(), persona: { role: 'r'.repeat(PERSONA_ROLE_MAX), description: '' } });
      await expectCreated({ ...validBody(), persona: { role: 'r', description: 'p'.repeat(PERSONA_TEXT_MAX) } });
      await expectValidationError({ ...validBody(), persona: { role: '', description: '' } }, 'body.persona.role');
      await expectValidationError(
        { ...validBody(), persona: { role: 'r'.repeat(PERSONA_ROLE_MAX + 1), description: '' } },
        'body.persona.role',
      );
      await expectValidationError(
        { ...validBody(), persona: { role: 'CFO', description: 'p'.repeat(PERSONA_TEXT_MAX + 1) } },
        'body.persona.description',
      );
      await expectValidationError({ ...validBody(), persona: { role: 'CFO' } }, 'body.persona.description');
      await expectValidationError({ ...validBody(), persona: { description: 'x' } }, 'body.persona.role');
      await expectValidationError({ ...validBody(), persona: 'CFO' }, 'body.persona');
    });

    it(`strategy: type 1-${STRATEGY_TYPE_MAX} characters; preset one of ${STRATEGY_PRESETS.join(', ')}`, async () => {
      for (const preset of STRATEGY_PRESETS) {
        await expectCreated({ ...validBody(), strategy: { type: 't'.repeat(STRATEGY_TYPE_MAX), preset } });
      }
      await expectValidationError({ ...validBody(), strategy: { type: '', preset: 'BALANCED' } }, 'body.strategy.type');
      await expectValidationError(
        { ...validBody(), strategy: { type: 't'.repeat(STRATEGY_TYPE_MAX + 1), preset: 'BALANCED' } },
        'body.strategy.type',
      );
      for (const preset of ['balanced', 'RECKLESS', '', 1, null]) {
        const error = await expectValidationError(
          { ...validBody(), strategy: { type: 'x', preset } },
          'body.strategy.preset',
        );
        if (typeof preset === 'string') expect(error.message).toContain('BALANCED, AGGRESSIVE, CONSERVATIVE');
      }
      await expectValidationError({ ...validBody(), strategy: { type: 'x' } }, 'body.strategy.preset');
    });

    it('refuses unknown fields at every level', async () => {
      await expectValidationError({ ...validBody(), status: 'ACTIVE' }, 'body.status');
      await expectValidationError({ ...validBody(), companyId: 'c1' }, 'body.companyId');
      await expectValidationError({ ...validBody(), role: 'CFO' }, 'body.role');
      await expectValidationError(
        { ...validBody(), persona: { role: 'CFO', description: '', tone: 'dry' } },
        'body.persona.tone',
      );
      await expectValidationError(
        { ...validBody(), strategy: { type: 'x', preset: 'BALANCED', leverage: 3 } },
        'body.strategy.leverage',
      );
    });

    it('requires name, persona, skills and strategy', async () => {
      for (const field of ['name', 'persona', 'skills', 'strategy']) {
        const body: Body = validBody();
        delete body[field];
        const error = await expectValidationError(body, `body.${field}`);
        expect(error.message).toContain('is required');
      }
    });

    it('refuses wrong types and a body that is not an object', async () => {
      await expectValidationError({ ...validBody(), name: 5 }, 'body.name');
      await expectValidationError([validBody()]);
      await expectValidationError('"agent"');
      await expectValidationError(undefined);
    });
  });

  runCommonRouteTests(() => ({ app: t.app, now: t.container.now }), {
    method: 'POST',
    url: '/api/agents',
    body: validBody(),
  });
});
