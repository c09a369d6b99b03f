// Attack: make an edited decision round show as verified on-chain. The verify route accepted any ERC-8004
// validation entry with a positive answer, and anyone can register an agent, request validation of any hash from a
// validator of their choosing (themselves), and answer 100. Now the registry itself refuses a validator the owner did
// not allow (the platform's keys), and derives each request's hash from its requester, so a stranger can neither
// validate nor take the platform's request; the verify route counts the validations the registry shows (by an
// allowed validator, not retracted by its removal) for an agent of the round's company that existed by the round.
// After a key rotation, a third party reading the registry and the verify route give the same answer.

import { ValidationRegistryAbi } from '@ai-economy/shared/abis';
import { decisionHash } from '@ai-economy/shared/decision-hash';
import { eq } from 'drizzle-orm';
import { encodeFunctionData, type Hex, keccak256, parseAbi, toBytes } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { registeredAgentId } from '../../src/chain/contracts/identity.ts';
import { validationRequestHash } from '../../src/chain/contracts/validation.ts';
import { agents } from '../../src/db/schema/agents.ts';
import { decisionRounds } from '../../src/db/schema/decisions.ts';
import { useTestApp } from '../helpers/app.ts';
import { companyBody, mintCard, signed } from '../helpers/companies.ts';
import { expectRevert } from '../helpers/revert.ts';

const t = useTestApp();
let companyId: string;
let round: typeof decisionRounds.$inferSelect;

const verify = async (roundId: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/decisions/${roundId}/verify` })).json().data;

/** Sends a transaction from dev account `index` and waits for it. */
async function send(index: number, to: Hex, data: Hex) {
  const client = t.chain.chain.publicClient;
  const receipt = await client.waitForTransactionReceipt({
    hash: await t.chain.wallet(index).sendTransaction({ to, data }),
  });
  expect(receipt.status).toBe('success');
  return receipt;
}

/** The validation request of `hash` by `requester` for `agentId` from `validator`, which the registry refuses. */
async function refusedRequest(requester: number, validator: number, agentId: bigint, hash: Hex) {
  const request = t.chain.chain.publicClient.simulateContract({
    account: t.chain.wallet(requester).account,
    address: t.chain.chain.contracts.validationRegistry!,
    abi: ValidationRegistryAbi,
    functionName: 'validationRequest',
    args: [t.chain.wallet(validator).account.address, agentId, 'ipfs://decision', hash],
  });
  await expectRevert(request, 'ValidationRegistryValidatorNotAllowed', [t.chain.wallet(validator).account.address]);
}

/** Validation of `hash` asked by `requester` for `agentId` from `validator`, who answers 100. */
async function validate(requester: number, validator: number, agentId: bigint, hash: Hex) {
  await ask(requester, validator, agentId, hash);
  await answer(requester, validator, hash);
}

/** The validation request of `hash` by `requester` for `agentId`, naming `validator`. */
async function ask(requester: number, validator: number, agentId: bigint, hash: Hex) {
  await send(
    requester,
    t.chain.chain.contracts.validationRegistry!,
    encodeFunctionData({
      abi: ValidationRegistryAbi,
      functionName: 'validationRequest',
      args: [t.chain.wallet(validator).account.address, agentId, 'ipfs://decision', hash],
    }),
  );
}

/** `validator` answers 100 to `requester`'s request of `hash`. */
async function answer(requester: number, validator: number, hash: Hex) {
  await send(
    validator,
    t.chain.chain.contracts.validationRegistry!,
    encodeFunctionData({
      abi: ValidationRegistryAbi,
      functionName: 'validationResponse',
      args: [
        validationRequestHash(t.chain.wallet(requester).account.address, hash),
        100,
        'ipfs://ok',
        keccak256(toBytes('ok')),
        keccak256(toBytes('decision')),
      ],
    }),
  );
}

/** The round edited in the database (an action added), its hash recomputed, and no anchoring: what a tamperer does. */
async function tamper(label: string): Promise<Hex> {
  const actions = [
    ...(round.actions ?? []),
    { role: 'CFO', tool: 'publish_update', args: { message: label }, rationale: 'x' },
  ];
  const hash = decisionHash({ companyId, cycle: round.cycle, directive: round.directive!, actions }) as Hex;
  await t.database.db
    .update(decisionRounds)
    .set({ actions, decisionHash: hash, anchorTxHash: null, anchoredAt: null })
    .where(eq(decisionRounds.id, round.id));
  return hash;
}

beforeAll(async () => {
  await mintCard(t.chain, 1);
  companyId = (await signed(t.app, 1, 'POST', '/api/companies', companyBody({ name: 'Honest Co' }))).json().data.id;
  expect((await signed(t.app, 1, 'POST', `/api/companies/${companyId}/deploy-suite`)).statusCode).toBe(200);
  const res = await signed(t.app, 1, 'POST', `/api/companies/${companyId}/decisions/run`);
  expect(res.statusCode).toBe(201);
  const [row] = await t.database.db.select().from(decisionRounds).where(eq(decisionRounds.id, res.json().data.id));
  round = row!;
});

describe('spoofed verification', () => {
  it("a stranger's own agent and validator cannot verify a tampered round", async () => {
    const hash = await tamper('tampered by a stranger');
    // The stranger registers an agent of their own and validates the tampered hash themselves.
    const receipt = await send(
      7,
      t.chain.chain.contracts.identityRegistry!,
      encodeFunctionData({ abi: parseAbi(['function register(string)']), functionName: 'register', args: ['x'] }),
    );
    const strangerAgent = registeredAgentId(receipt, t.chain.chain.contracts.identityRegistry!);
    await refusedRequest(7, 7, strangerAgent, hash);
    const data = await verify(round.id);
    expect(data.onChainVerified).toBe(false);
    expect(data.verificationMethod).not.toBe('erc8004_validation');
  });

  it("a stranger validator cannot verify it even for one of the company's own agents", async () => {
    const hash = await tamper('tampered again');
    const [agent] = await t.database.db.select().from(agents).where(eq(agents.companyId, companyId)).limit(1);
    // The platform owns the agents' identities; it asks a validator that is not one of its own.
    await refusedRequest(0, 8, BigInt(agent!.erc8004TokenId!), hash);
    expect((await verify(round.id)).onChainVerified).toBe(false);
  });

  it("the platform's validator cannot verify it for another company's agent either", async () => {
    const hash = await tamper('tampered a third time');
    await mintCard(t.chain, 2);
    const other = (await signed(t.app, 2, 'POST', '/api/companies', companyBody({ name: 'Other Co' }))).json().data.id;
    expect((await signed(t.app, 2, 'POST', `/api/companies/${other}/deploy-suite`)).statusCode).toBe(200);
    const [agent] = await t.database.db.select().from(agents).where(eq(agents.companyId, other)).limit(1);
    await validate(0, 0, BigInt(agent!.erc8004TokenId!), hash);
    expect((await verify(round.id)).onChainVerified).toBe(false);
  });

  it("a stranger's request of the same hash, from the platform's validator, is another request and proves nothing", async () => {
    const hash = await tamper('tampered, and requested by a stranger');
    const receipt = await send(
      7,
      t.chain.chain.contracts.identityRegistry!,
      encodeFunctionData({ abi: parseAbi(['function register(string)']), functionName: 'register', args: ['y'] }),
    );
    const strangerAgent = registeredAgentId(receipt, t.chain.chain.contracts.identityRegistry!);
    // Even if the platform's validator answered it, the entry is the stranger's request (its hash derived from the
    // stranger), not the platform's, and the route looks only at the platform's.
    await validate(7, 0, strangerAgent, hash);
    const data = await verify(round.id);
    expect(data.onChainVerified).toBe(false);
    expect(data.verificationMethod).not.toBe('erc8004_validation');
  });

  it("a validation by the platform's validator for an agent of the company verifies", async () => {
    const hash = await tamper('a legacy entry the platform made');
    const [agent] = await t.database.db.select().from(agents).where(eq(agents.companyId, companyId)).limit(1);
    await validate(0, 0, BigInt(agent!.erc8004TokenId!), hash);
    // The round is dated by the chain's clock in whole seconds, the agent by the service's in milliseconds: an agent
    // of the round's own second existed by it, one of the next second did not.
    const agentCreatedAt = async (msAfterRound: number) =>
      t.database.db
        .update(agents)
        .set({ createdAt: new Date(round.createdAt.getTime() + msAfterRound) })
        .where(eq(agents.id, agent!.id));
    await agentCreatedAt(1_000);
    expect(await verify(round.id)).toMatchObject({ verificationMethod: 'db_only', onChainVerified: false });
    await agentCreatedAt(999);
    expect(await verify(round.id)).toMatchObject({ verificationMethod: 'erc8004_validation', onChainVerified: true });
  });
});

describe("a validator's removal (a key rotation)", () => {
  /** The score the registry shows for the platform's request of `hash`, as any third party reads it. */
  const registryScore = async (hash: Hex) =>
    (
      await t.chain.chain.publicClient.readContract({
        address: t.chain.chain.contracts.validationRegistry!,
        abi: ValidationRegistryAbi,
        functionName: 'getValidationStatus',
        args: [validationRequestHash(t.chain.wallet(0).account.address, hash)],
      })
    )[2];
  /** The round made to hold `hash` again (one round stands for each legacy hash in turn). */
  const holding = (hash: Hex) =>
    t.database.db.update(decisionRounds).set({ decisionHash: hash }).where(eq(decisionRounds.id, round.id));
  /** The registry and the verify route agree on `hash`, and say `verified`. */
  async function agree(hash: Hex, verified: boolean) {
    await holding(hash);
    expect((await registryScore(hash)) > 0).toBe(verified);
    expect(await verify(round.id)).toMatchObject({
      onChainVerified: verified,
      verificationMethod: verified ? 'erc8004_validation' : 'db_only',
    });
  }
  const setValidator = (index: number, allowed: boolean) =>
    send(
      0,
      t.chain.chain.contracts.validationRegistry!,
      encodeFunctionData({
        abi: ValidationRegistryAbi,
        functionName: 'setValidator',
        args: [t.chain.wallet(index).account.address, allowed],
      }),
    );

  it('retracts its answers in the registry and in the verify route at once, for good; the new key counts in both', async () => {
    const [agent] = await t.database.db.select().from(agents).where(eq(agents.companyId, companyId)).limit(1);
    const agentId = BigInt(agent!.erc8004TokenId!);
    const old = await tamper('answered by the key about to be rotated');
    await validate(0, 0, agentId, old);
    // Before the rotation, a request the old key has yet to answer.
    const pending = keccak256(toBytes('asked before the rotation, answered after'));
    await ask(0, 0, agentId, pending);
    await agree(old, true);

    // The owner rotates the validator key: the new key (account 5) allowed, the old (the platform's, account 0)
    // removed. The old key's answer leaves the registry and the route together.
    await setValidator(5, true);
    await setValidator(0, false);
    await agree(old, false);

    // The new key's answer counts in both, though it is not a key the service signs with.
    const fresh = keccak256(toBytes('answered by the new key'));
    await validate(0, 5, agentId, fresh);
    await agree(fresh, true);

    // The old key allowed again does not bring back its old answer; what it answers now counts.
    await setValidator(0, true);
    await agree(old, false);
    await answer(0, 0, pending);
    await agree(pending, true);
  });
});
