// The ERC-8004 validation registry (first-draft interface): requests by the agent's owner or an approved operator,
// each request's hash derived on-chain from its requester and its data (nobody takes another's request); validators
// an allow-list the owner sets, so a validation by a stranger never exists; a removed validator's answers retracted
// for good; answers 0-100 by the named validator only, repeatable; the status view, the per-agent and per-validator lists, and the gas of validationRequest and
// validationResponse.

import { IdentityRegistryAbi, ValidationRegistryAbi } from '@ai-economy/shared/abis';
import { type Abi, type Address, type Hex, keccak256, stringToHex } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { registeredAgentId } from '../../src/chain/contracts/identity.ts';
import { validationRequestHash } from '../../src/chain/contracts/validation.ts';
import { seededIntegers } from '../helpers/random.ts';
import { expectRevert } from '../helpers/revert.ts';
import { contractHelpers, useCardChain, ZERO } from './fixture.ts';

const f = useCardChain();

const registry = () => f.chain.chain.contracts.validationRegistry!;
const identity = () => f.chain.chain.contracts.identityRegistry!;
const ZERO_HASH = `0x${'00'.repeat(32)}` as Hex;
const hash = (s: string) => keccak256(stringToHex(s));
const tag = (s: string) => stringToHex(s, { size: 32 });
/** Errors that bubble up from the identity registry (ERC721NonexistentToken). */
const IDENTITY_ERRORS = IdentityRegistryAbi.filter((item) => item.type === 'error') as Abi;

const { write, simulate, read, events } = contractHelpers(f, registry, ValidationRegistryAbi);
const { write: identityWrite } = contractHelpers(f, identity, IdentityRegistryAbi);

/** The request hash of account i's request for the data `s` (derived on-chain). */
const rq = (i: number, s: string) => validationRequestHash(f.addr(i), hash(s));

/** Registers an agent owned by account i and returns its id (the first is 0). */
async function registerAgent(i: number): Promise<bigint> {
  return registeredAgentId(await identityWrite(i, 'register', [`https://agents.example/${i}.json`]), identity());
}

/** Account `owner` asks `validator` to validate `dataHash` for `agentId`. */
function request(owner: number, validator: Address, agentId: bigint, dataHash: Hex, uri = 'ipfs://request') {
  return write(owner, 'validationRequest', [validator, agentId, uri, dataHash]);
}

// Accounts 5 and 6 are validators the owner allows (the deployment allows the platform's keys, account 0).
beforeAll(async () => {
  await write(0, 'setValidator', [f.addr(5), true]);
  await write(0, 'setValidator', [f.addr(6), true]);
});

describe('deployment', () => {
  it('is bound to the identity registry, owned by the platform, which is its first validator', async () => {
    expect(await read('getIdentityRegistry')).toBe(identity());
    expect(await read('MAX_RESPONSE')).toBe(100);
    expect(await read('owner')).toBe(f.addr(0));
    expect(await read('isValidator', [f.addr(0)])).toBe(true);
    expect(await read('isValidator', [f.addr(7)])).toBe(false);
  });
});

describe('validationRequest', () => {
  it('records the request for the agent and the validator and emits ValidationRequest', async () => {
    const agentId = await registerAgent(1);
    expect(agentId).toBe(0n);
    const data = hash('decision-1');
    const h = rq(1, 'decision-1');
    expect(await read('requestHashOf', [f.addr(1), data])).toBe(h);
    const receipt = await request(1, f.addr(5), agentId, data, 'https://ai-economy.example/decisions/1');
    expect(events(receipt)).toEqual([
      [
        'ValidationRequest',
        {
          validatorAddress: f.addr(5),
          agentId,
          requestUri: 'https://ai-economy.example/decisions/1',
          requestHash: h,
        },
      ],
    ]);
    expect(await read('getValidationStatus', [h])).toEqual([
      f.addr(5),
      agentId,
      0,
      ZERO_HASH,
      ZERO_HASH,
      await f.blockTime(receipt),
    ]);
    expect(await read('getAgentValidations', [agentId])).toEqual([h]);
    expect(await read('getValidatorRequests', [f.addr(5)])).toEqual([h]);
  });

  it('accepts an operator approved for the agent or for all of the owner’s agents', async () => {
    const agentId = await registerAgent(1);
    await identityWrite(1, 'approve', [f.addr(2), agentId]);
    await request(2, f.addr(5), agentId, hash('by-approved'));
    await identityWrite(1, 'setApprovalForAll', [f.addr(3), true]);
    await request(3, f.addr(5), agentId, hash('by-operator'));
    expect(await read('getAgentValidations', [agentId])).toEqual([rq(2, 'by-approved'), rq(3, 'by-operator')]);
  });

  it('refuses anyone else, an unknown agent, a validator not allowed and a request made before', async () => {
    const agentId = await registerAgent(1);
    await expectRevert(
      simulate(2, 'validationRequest', [f.addr(5), agentId, '', hash('x')]),
      'ValidationRegistryUnauthorizedRequester',
      [f.addr(2), agentId],
    );
    // The validator is not the agent's owner either.
    await expectRevert(
      simulate(5, 'validationRequest', [f.addr(5), agentId, '', hash('x')]),
      'ValidationRegistryUnauthorizedRequester',
      [f.addr(5), agentId],
    );
    await expectRevert(
      simulate(1, 'validationRequest', [f.addr(5), 7n, '', hash('x')]),
      'ERC721NonexistentToken',
      [7n],
      IDENTITY_ERRORS,
    );
    for (const validator of [ZERO, f.addr(7), f.addr(1)]) {
      await expectRevert(
        simulate(1, 'validationRequest', [validator, agentId, '', hash('x')]),
        'ValidationRegistryValidatorNotAllowed',
        [validator],
      );
    }

    await request(1, f.addr(5), agentId, hash('once'));
    // The same data from another requester is another request: nobody can take account 1's.
    const other = await registerAgent(2);
    await request(2, f.addr(6), other, hash('once'));
    expect(await read('getAgentValidations', [other])).toEqual([rq(2, 'once')]);
    await expectRevert(
      simulate(1, 'validationRequest', [f.addr(6), agentId, '', hash('once')]),
      'ValidationRegistryRequestExists',
      [rq(1, 'once')],
    );
    await f.minedRevert(
      1,
      {
        address: registry(),
        abi: ValidationRegistryAbi,
        functionName: 'validationRequest',
        args: [f.addr(5), agentId, '', hash('once')],
      },
      'ValidationRegistryRequestExists',
      [rq(1, 'once')],
    );
  });

  it('follows the agent to its new owner', async () => {
    const agentId = await registerAgent(1);
    await identityWrite(1, 'transferFrom', [f.addr(1), f.addr(4), agentId]);
    await expectRevert(
      simulate(1, 'validationRequest', [f.addr(5), agentId, '', hash('after-transfer')]),
      'ValidationRegistryUnauthorizedRequester',
      [f.addr(1), agentId],
    );
    await request(4, f.addr(5), agentId, hash('after-transfer'));
  });
});

describe('validationResponse', () => {
  it('records the validator’s answer, repeatable, and emits ValidationResponse', async () => {
    const agentId = await registerAgent(1);
    const h = rq(1, 'decision-r');
    await request(1, f.addr(5), agentId, hash('decision-r'));
    await f.client.increaseTime({ seconds: 60 });

    const first = await write(5, 'validationResponse', [h, 100, 'ipfs://evidence', hash('evidence'), tag('decision')]);
    expect(events(first)).toEqual([
      [
        'ValidationResponse',
        {
          validatorAddress: f.addr(5),
          agentId,
          requestHash: h,
          response: 100,
          responseUri: 'ipfs://evidence',
          responseHash: hash('evidence'),
          tag: tag('decision'),
        },
      ],
    ]);
    expect(await read('getValidationStatus', [h])).toEqual([
      f.addr(5),
      agentId,
      100,
      hash('evidence'),
      tag('decision'),
      await f.blockTime(first),
    ]);

    // A later answer replaces the score (the standard's progressive validation); 0 is a valid score.
    const second = await write(5, 'validationResponse', [h, 0, '', ZERO_HASH, ZERO_HASH]);
    expect(await read('getValidationStatus', [h])).toEqual([
      f.addr(5),
      agentId,
      0,
      ZERO_HASH,
      ZERO_HASH,
      await f.blockTime(second),
    ]);
  });

  it('accepts 0-100 and refuses 101 and 255', async () => {
    const agentId = await registerAgent(1);
    const h = rq(1, 'bounds');
    await request(1, f.addr(5), agentId, hash('bounds'));
    for (const score of [0, 1, 99, 100]) await write(5, 'validationResponse', [h, score, '', ZERO_HASH, ZERO_HASH]);
    await expectRevert(
      simulate(5, 'validationResponse', [h, 101, '', ZERO_HASH, ZERO_HASH]),
      'ValidationRegistryInvalidResponse',
      [101],
    );
    await f.minedRevert(
      5,
      {
        address: registry(),
        abi: ValidationRegistryAbi,
        functionName: 'validationResponse',
        args: [h, 255, '', ZERO_HASH, ZERO_HASH],
      },
      'ValidationRegistryInvalidResponse',
      [255],
    );
    expect((await read<readonly unknown[]>('getValidationStatus', [h]))[2]).toBe(100);
  });

  it('is for the requested validator only; the agent’s owner cannot answer its own request', async () => {
    const agentId = await registerAgent(1);
    const h = rq(1, 'only-validator');
    await request(1, f.addr(5), agentId, hash('only-validator'));
    for (const i of [1, 6]) {
      await expectRevert(
        simulate(i, 'validationResponse', [h, 100, '', ZERO_HASH, ZERO_HASH]),
        'ValidationRegistryUnauthorizedValidator',
        [f.addr(i), f.addr(5)],
      );
    }
    await expectRevert(
      simulate(5, 'validationResponse', [hash('unknown'), 100, '', ZERO_HASH, ZERO_HASH]),
      'ValidationRegistryUnknownRequest',
      [hash('unknown')],
    );
  });
});

describe('validator allow-list', () => {
  it('the owner allows and removes validators; a removed validator can no longer answer', async () => {
    await expectRevert(simulate(1, 'setValidator', [f.addr(7), true]), 'OwnableUnauthorizedAccount', [f.addr(1)]);
    await expectRevert(simulate(0, 'setValidator', [ZERO, true]), 'ValidationRegistryInvalidAddress', [ZERO]);
    const set = await write(0, 'setValidator', [f.addr(7), true]);
    expect(events(set)).toEqual([['ValidatorSet', { validatorAddress: f.addr(7), allowed: true }]]);
    const agentId = await registerAgent(1);
    await request(1, f.addr(7), agentId, hash('removed'));
    await write(0, 'setValidator', [f.addr(7), false]);
    expect(await read('isValidator', [f.addr(7)])).toBe(false);
    await expectRevert(
      simulate(7, 'validationResponse', [rq(1, 'removed'), 100, '', ZERO_HASH, ZERO_HASH]),
      'ValidationRegistryValidatorNotAllowed',
      [f.addr(7)],
    );
  });

  it('removing a validator retracts its answers, for good; the answers of other validators stand', async () => {
    await write(0, 'setValidator', [f.addr(7), true]);
    const agentId = await registerAgent(1);
    await request(1, f.addr(7), agentId, hash('retracted'));
    await request(1, f.addr(6), agentId, hash('stands'));
    const answer = await write(7, 'validationResponse', [
      rq(1, 'retracted'),
      100,
      'ipfs://evidence',
      hash('evidence'),
      tag('decision'),
    ]);
    await write(6, 'validationResponse', [rq(1, 'stands'), 90, '', hash('other'), tag('decision')]);
    const answeredAt = await f.blockTime(answer);
    expect(await read('getValidationStatus', [rq(1, 'retracted')])).toEqual([
      f.addr(7),
      agentId,
      100,
      hash('evidence'),
      tag('decision'),
      answeredAt,
    ]);

    // A key rotation: the old key removed. Its answer reads as no answer from then on; the request stays on record.
    await write(0, 'setValidator', [f.addr(7), false]);
    const retracted = [f.addr(7), agentId, 0, ZERO_HASH, ZERO_HASH, answeredAt];
    expect(await read('getValidationStatus', [rq(1, 'retracted')])).toEqual(retracted);
    expect((await read<readonly unknown[]>('getValidationStatus', [rq(1, 'stands')]))[2]).toBe(90);
    expect(await read('getValidatorRequests', [f.addr(7)])).toEqual([rq(1, 'retracted')]);

    // Allowed again, the key does not get its old word back; it may answer anew.
    await write(0, 'setValidator', [f.addr(7), true]);
    expect(await read('getValidationStatus', [rq(1, 'retracted')])).toEqual(retracted);
    // Allowing an allowed validator, or removing a removed one, changes nothing.
    await write(0, 'setValidator', [f.addr(6), true]);
    expect((await read<readonly unknown[]>('getValidationStatus', [rq(1, 'stands')]))[2]).toBe(90);
    const again = await write(7, 'validationResponse', [rq(1, 'retracted'), 80, '', hash('anew'), tag('decision')]);
    expect(await read('getValidationStatus', [rq(1, 'retracted')])).toEqual([
      f.addr(7),
      agentId,
      80,
      hash('anew'),
      tag('decision'),
      await f.blockTime(again),
    ]);
    await write(0, 'setValidator', [f.addr(7), false]);
    await write(0, 'setValidator', [f.addr(7), false]);
    expect((await read<readonly unknown[]>('getValidationStatus', [rq(1, 'retracted')]))[2]).toBe(0);
  });

  it('property: a validation by a stranger never counts, whoever requests and answers what', async () => {
    // A seeded walk (replayable): random requesters ask random accounts to validate random data, every account tries
    // to answer every request, and the owner now and then allows or removes a validator. Whatever happens, every
    // answer on record is by the request's own validator, allowed when it answered, and the status view shows an
    // answer exactly while its validator is allowed and has not been removed since it answered.
    const next = seededIntegers(2602);
    const accounts = [1, 2, 3, 4, 5, 6, 7, 8];
    const agents = new Map<number, bigint>();
    for (const i of [1, 2, 3]) agents.set(i, await registerAgent(i));
    const allowed = new Set([f.addr(0), f.addr(5), f.addr(6)]);
    const requests: Hex[] = [];
    let answered = 0;
    // The model: each validator's removals so far, and each request's latest answer with its validator's removals then.
    const removals = new Map<Address, number>();
    const answers = new Map<Hex, { validator: Address; response: number; removals: number }>();
    const shown = (h: Hex) => {
      const a = answers.get(h);
      if (!a || !allowed.has(a.validator) || (removals.get(a.validator) ?? 0) !== a.removals) return 0;
      return a.response;
    };
    let sawStanding = false;
    let sawRetracted = false;
    const checkShown = async () => {
      for (const h of requests) {
        expect((await read<readonly unknown[]>('getValidationStatus', [h]))[2], h).toBe(shown(h));
        // Every answer of the walk is 1-100: an answered request that shows 0 was retracted.
        if (answers.has(h) && shown(h) > 0) sawStanding = true;
        else if (answers.has(h)) sawRetracted = true;
      }
    };
    const tryWrite = async (i: number, functionName: string, args: readonly unknown[]) => {
      try {
        await simulate(i, functionName, args);
      } catch {
        return false;
      }
      await write(i, functionName, args);
      return true;
    };
    for (let step = 0; step < 60; step++) {
      const kind = next(6);
      if (kind === 0) {
        const v = accounts[next(accounts.length)]!;
        const on = next(2) === 0;
        await write(0, 'setValidator', [f.addr(v), on]);
        if (!on && allowed.has(f.addr(v))) removals.set(f.addr(v), (removals.get(f.addr(v)) ?? 0) + 1);
        if (on) allowed.add(f.addr(v));
        else allowed.delete(f.addr(v));
        await checkShown();
      } else if (kind <= 2) {
        const requester = 1 + next(3);
        const validator = f.addr(accounts[next(accounts.length)]!);
        const data = hash(`walk-${next(6)}`);
        const ok = await tryWrite(requester, 'validationRequest', [validator, agents.get(requester)!, '', data]);
        const h = validationRequestHash(f.addr(requester), data);
        if (ok) requests.push(h);
        // Refused exactly when the validator is not allowed or the request exists already.
        if (!allowed.has(validator)) expect(ok).toBe(false);
      } else if (requests.length > 0) {
        const h = requests[next(requests.length)]!;
        const answerer = accounts[next(accounts.length)]!;
        const [validator] = await read<readonly [Address]>('getValidationStatus', [h]);
        const response = 1 + next(100);
        const ok = await tryWrite(answerer, 'validationResponse', [h, response, '', ZERO_HASH, ZERO_HASH]);
        expect(ok).toBe(f.addr(answerer) === validator && allowed.has(validator));
        if (ok) {
          answered++;
          answers.set(h, { validator, response, removals: removals.get(validator) ?? 0 });
        }
      }
    }
    await checkShown();
    // the walk retracted some answers and kept others
    expect(sawRetracted).toBe(true);
    expect(sawStanding).toBe(true);
    // the walk made requests and answered some of them (not a walk of refusals only)
    expect(requests.length).toBeGreaterThanOrEqual(5);
    expect(answered).toBeGreaterThan(0);
  }, 120_000);
});

describe('views', () => {
  it('getValidationStatus reverts for an unknown hash; the lists keep each agent’s and validator’s requests', async () => {
    await expectRevert(
      f.client.readContract({
        address: registry(),
        abi: ValidationRegistryAbi,
        functionName: 'getValidationStatus',
        args: [hash('nothing')],
      }),
      'ValidationRegistryUnknownRequest',
      [hash('nothing')],
    );
    const a = await registerAgent(1);
    const b = await registerAgent(2);
    await request(1, f.addr(5), a, hash('a1'));
    await request(2, f.addr(5), b, hash('b1'));
    await request(1, f.addr(6), a, hash('a2'));
    expect(await read('getAgentValidations', [a])).toEqual([rq(1, 'a1'), rq(1, 'a2')]);
    expect(await read('getAgentValidations', [b])).toEqual([rq(2, 'b1')]);
    expect(await read('getAgentValidations', [99n])).toEqual([]);
    expect(await read('getValidatorRequests', [f.addr(5)])).toEqual([rq(1, 'a1'), rq(2, 'b1')]);
    expect(await read('getValidatorRequests', [f.addr(6)])).toEqual([rq(1, 'a2')]);
  });
});

describe('gas', () => {
  it('records the gas of validationRequest and validationResponse', async () => {
    const agentId = await registerAgent(1);
    const uri = 'https://ai-economy.example/api/decisions/clx8q2v0k0000abcd1234efgh/verify'; // 74 characters
    const req = await request(1, f.addr(5), agentId, hash('gas'), uri);
    const res = await write(5, 'validationResponse', [rq(1, 'gas'), 100, uri, hash('evidence'), tag('decision')]);
    const gas = { validationRequest: Number(req.gasUsed), validationResponse: Number(res.gasUsed) };
    console.log('ValidationRegistry gas used', gas);
    expect(req.gasUsed).toBeLessThan(200_000n);
    expect(res.gasUsed).toBeLessThan(100_000n);
  });
});
