// The ERC-8004 validation registry (first-draft interface): requests by the agent's owner or an approved operator,
// each request hash once; answers 0-100 by the named validator only, repeatable; the status view, the per-agent and
// per-validator lists, and the gas of validationRequest and validationResponse.
import { type Abi, type Address, type Hex, keccak256, stringToHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { registeredAgentId } from '../../src/chain/contracts/identity.ts';
import { IdentityRegistryAbi, ValidationRegistryAbi } from '../../src/chain/generated/abis.ts';
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

/** Registers an agent owned by account i and returns its id (the first is 0). */
async function registerAgent(i: number): Promise<bigint> {
  return registeredAgentId(await identityWrite(i, 'register', [`https://agents.example/${i}.json`]), identity());
}

/** Account `owner` asks `validator` to validate `requestHash` for `agentId`. */
function request(owner: number, validator: Address, agentId: bigint, requestHash: Hex, uri = 'ipfs://request') {
  return write(owner, 'validationRequest', [validator, agentId, uri, requestHash]);
}

describe('deployment', () => {
  it('is bound to the identity registry', async () => {
    expect(await read('getIdentityRegistry')).toBe(identity());
    expect(await read('MAX_RESPONSE')).toBe(100);
  });
});

describe('validationRequest', () => {
  it('records the request for the agent and the validator and emits ValidationRequest', async () => {
    const agentId = await registerAgent(1);
    expect(agentId).toBe(0n);
    const h = hash('decision-1');
    const receipt = await request(1, f.addr(5), agentId, h, 'https://ai-economy.example/decisions/1');
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
    expect(await read('getAgentValidations', [agentId])).toEqual([hash('by-approved'), hash('by-operator')]);
  });

  it('refuses anyone else, an unknown agent, a zero validator and a request hash used before', async () => {
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
    await expectRevert(
      simulate(1, 'validationRequest', [ZERO, agentId, '', hash('x')]),
      'ValidationRegistryInvalidAddress',
      [ZERO],
    );

    await request(1, f.addr(5), agentId, hash('once'));
    const other = await registerAgent(2);
    await expectRevert(
      simulate(2, 'validationRequest', [f.addr(6), other, '', hash('once')]),
      'ValidationRegistryRequestExists',
      [hash('once')],
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
      [hash('once')],
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
    const h = hash('decision-r');
    await request(1, f.addr(5), agentId, h);
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
    const h = hash('bounds');
    await request(1, f.addr(5), agentId, h);
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
    const h = hash('only-validator');
    await request(1, f.addr(5), agentId, h);
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
    expect(await read('getAgentValidations', [a])).toEqual([hash('a1'), hash('a2')]);
    expect(await read('getAgentValidations', [b])).toEqual([hash('b1')]);
    expect(await read('getAgentValidations', [99n])).toEqual([]);
    expect(await read('getValidatorRequests', [f.addr(5)])).toEqual([hash('a1'), hash('b1')]);
    expect(await read('getValidatorRequests', [f.addr(6)])).toEqual([hash('a2')]);
  });
});

describe('gas', () => {
  it('records the gas of validationRequest and validationResponse', async () => {
    const agentId = await registerAgent(1);
    const uri = 'https://ai-economy.example/api/decisions/clx8q2v0k0000abcd1234efgh/verify'; // 74 characters
    const req = await request(1, f.addr(5), agentId, hash('gas'), uri);
    const res = await write(5, 'validationResponse', [hash('gas'), 100, uri, hash('evidence'), tag('decision')]);
    const gas = { validationRequest: Number(req.gasUsed), validationResponse: Number(res.gasUsed) };
    console.log('ValidationRegistry gas used', gas);
    expect(req.gasUsed).toBeLessThan(200_000n);
    expect(res.gasUsed).toBeLessThan(100_000n);
  });
});
