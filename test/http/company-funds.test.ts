// Money in, money out of a company: GET /api/companies/{id}/funding names where its USDC goes (its Safe with
// custody, its CFO's wallet without) and the one transfer that funds it; POST /api/companies/{id}/safe/withdrawal
// builds the Safe transaction the card's holder signs and executes with their own wallet (the server signs nothing),
// with every bound just inside and outside.

import { AccessCardAbi, SafeL2Abi } from '@ai-economy/shared/abis';
import { eq } from 'drizzle-orm';
import { type Address, decodeFunctionData, erc20Abi, type Hex, parseSignature } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { ownerContractSignature } from '../../src/chain/safe-tx.ts';
import { followStream } from '../../src/chain/streams.ts';
import { companyGasDays } from '../../src/db/schema/chain.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { accessCardTransfers } from '../../src/domain/companies/access-card-transfers.stream.ts';
import { chainNowMs, dayOf } from '../../src/domain/costs/gas-budget.ts';
import { startTestApp, type TestApp, useTestApp } from '../helpers/app.ts';
import { companyBody, mintCard, signed, staffedCompany } from '../helpers/companies.ts';
import { holderSignedCall, type PreparedSafeTx } from '../helpers/safe.ts';
import { tokenTrading } from '../helpers/trading.ts';

const t = useTestApp({ env: { COMPANY_CUSTODY: 'safe' } });
const trading = tokenTrading(t);
const USDC = 1_000_000n;

let safeCo: Awaited<ReturnType<typeof staffedCompany>>;
let plainCo: Awaited<ReturnType<typeof staffedCompany>>;
let safe: Address;
let plain: TestApp;

const funding = (id: string, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/companies/${id}/funding${query}` });
const withdrawal = (body: unknown, signer = 1, id = safeCo.id) =>
  signed(t.app, signer, 'POST', `/api/companies/${id}/safe/withdrawal`, body);

beforeAll(async () => {
  safeCo = await staffedCompany(t, 1, { name: 'Funded Safe Co' });
  safe = (await funding(safeCo.id)).json().data.recipients[0].address;
  // A company created where custody is off: its agents keep their own wallets.
  plain = await startTestApp({ database: t.database, chain: t.chain, env: { COMPANY_CUSTODY: 'none' } });
  plainCo = await staffedCompany({ ...t, app: plain.app }, 2, { name: 'Plain Wallets Co' });
}, 240_000);

afterAll(async () => {
  await plain?.close();
});

describe('GET /api/companies/{id}/funding', () => {
  it('names the Safe of a company with custody, and the transfer that funds it', async () => {
    const res = await funding(safeCo.id, '?amount=100');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      companyId: safeCo.id,
      custody: 'SAFE',
      recipients: [{ kind: 'SAFE', address: safe }],
    });
    expect(data.recipients).toHaveLength(1);
    expect(data.transaction).toMatchObject({ to: t.chain.chain.contracts.usdc, value: '0', recipient: safe });
    const call = decodeFunctionData({ abi: erc20Abi, data: data.transaction.data });
    expect(call).toEqual({ functionName: 'transfer', args: [safe, 100n * USDC] });
    // The funder's own wallet sends it: one transaction, no approval.
    await trading.send(
      t.chain.wallet(1).sendTransaction({ to: data.transaction.to, data: data.transaction.data, chain: null }),
    );
    expect(await trading.usdcOf(safe)).toBe(100n * USDC);
  });

  it('names the agents’ wallets of a company without custody, the CFO first', async () => {
    const data = (await funding(plainCo.id, '?amount=5')).json().data;
    expect(data.custody).toBe('AGENT_WALLETS');
    expect(data.recipients).toHaveLength(7);
    expect(data.recipients[0]).toMatchObject({ kind: 'AGENT', role: 'CFO', agentId: plainCo.cfo.id });
    expect(data.transaction.recipient.toLowerCase()).toBe(plainCo.cfo.address.toLowerCase());
    const other = data.recipients[3];
    const chosen = (await funding(plainCo.id, `?amount=5&agent=${other.agentId}`)).json().data;
    expect(chosen.transaction.recipient).toBe(other.address);
  });

  it.each([
    ['0.000001', 200],
    ['0', 400],
    ['0.0000001', 400],
    ['1000000000000000', 200],
    ['1000000000000000.000001', 400],
    ['-1', 400],
    ['1e3', 400],
    ['', 400],
  ])('amount %j answers %i', async (amount, status) => {
    const res = await funding(safeCo.id, `?amount=${encodeURIComponent(amount)}`);
    expect(res.statusCode, res.body).toBe(status);
    if (status === 400) expect(res.json()).toMatchObject({ success: false, error: { code: expect.any(String) } });
  });

  it('refuses an agent for a company with a Safe, an agent of another company, and an unknown company', async () => {
    expect((await funding(safeCo.id, `?amount=1&agent=${safeCo.cfo.id}`)).statusCode).toBe(400);
    expect((await funding(plainCo.id, `?amount=1&agent=${safeCo.cfo.id}`)).statusCode).toBe(400);
    expect((await funding('no-such-company')).statusCode).toBe(404);
  });
});

describe('POST /api/companies/{id}/safe/withdrawal', () => {
  it('builds a transaction the holder signs and executes with their own wallet', async () => {
    const to = devAccount(5).address;
    const res = await withdrawal({ amount: '40.5', to });
    expect(res.statusCode, res.body).toBe(200);
    const w = res.json().data;
    expect(w).toMatchObject({ safe, token: t.chain.chain.contracts.usdc, amount: '40.5', to, nonce: '0' });
    const m = w.typedData.message;
    expect(decodeFunctionData({ abi: erc20Abi, data: m.data })).toEqual({
      functionName: 'transfer',
      args: [to, 40_500_000n],
    });
    // The holder signs the typed data as given (uint fields as decimal strings) and sends execTransaction.
    const holder = devAccount(1);
    const signature = await holder.signTypedData({
      domain: w.typedData.domain,
      types: w.typedData.types,
      primaryType: 'SafeTx',
      message: m,
    });
    parseSignature(signature);
    const before = await trading.usdcOf(to);
    await trading.send(
      t.chain.wallet(1).writeContract({
        address: safe,
        abi: SafeL2Abi,
        functionName: 'execTransaction',
        args: [
          m.to,
          BigInt(m.value),
          m.data as Hex,
          m.operation,
          0n,
          0n,
          0n,
          m.gasToken,
          m.refundReceiver,
          ownerContractSignature(w.owner, signature),
        ],
      }),
    );
    expect((await trading.usdcOf(to)) - before).toBe(40_500_000n);
    expect(await trading.usdcOf(safe)).toBe(59_500_000n);
    // The next one is built at the Safe's next nonce.
    expect((await withdrawal({ amount: '1' })).json().data).toMatchObject({ nonce: '1', to: holder.address });
  });

  it('takes at most what the Safe holds, and only a positive amount in the token’s precision', async () => {
    expect((await withdrawal({ amount: '59.5' })).statusCode).toBe(200);
    const over = await withdrawal({ amount: '59.500001' });
    expect(over.statusCode).toBe(400);
    expect(over.json().error.message).toMatch(/the Safe holds 59\.5 USDC/);
    expect((await withdrawal({ amount: '0' })).statusCode).toBe(400);
    expect((await withdrawal({ amount: '0.000001' })).statusCode).toBe(200);
    expect((await withdrawal({ amount: '0.0000001' })).statusCode).toBe(400);
    expect((await withdrawal({ amount: 'ten' })).statusCode).toBe(400);
    expect((await withdrawal({})).statusCode).toBe(400);
    expect((await withdrawal({ amount: '1', extra: true })).statusCode).toBe(400);
  });

  it('refuses the Safe as destination and a token that is not the platform’s or the company’s', async () => {
    expect((await withdrawal({ amount: '1', to: safe })).statusCode).toBe(400);
    expect((await withdrawal({ amount: '1', to: '0x1234' })).statusCode).toBe(400);
    const stranger = await withdrawal({ amount: '1', token: devAccount(7).address });
    expect(stranger.statusCode).toBe(400);
  });

  it('answers 401 unsigned, 403 for anyone but the holder, 409 for a company without a Safe', async () => {
    const unsigned = await t.app.inject({
      method: 'POST',
      url: `/api/companies/${safeCo.id}/safe/withdrawal`,
      payload: { amount: '1' },
    });
    expect(unsigned.statusCode).toBe(401);
    expect((await withdrawal({ amount: '1' }, 2)).statusCode).toBe(403);
    const none = await withdrawal({ amount: '1' }, 2, plainCo.id);
    expect(none.statusCode).toBe(409);
    expect(none.json().error.message).toMatch(/has no Safe/);
  });
});

describe('a company whose creation was cut off before its C-suite', () => {
  let bare: string;
  beforeAll(async () => {
    await mintCard(t.chain, 3);
    const res = await signed(t.app, 3, 'POST', '/api/companies', companyBody({ name: 'Unstaffed Co' }));
    expect(res.statusCode).toBe(201);
    bare = res.json().data.id;
  }, 120_000);

  it('has nowhere to send money yet, no Safe to withdraw from, and is not moved (deploy-suite sets its Safe up)', async () => {
    const info = (await funding(bare)).json().data;
    expect(info).toMatchObject({ custody: 'AGENT_WALLETS', recipients: [], transaction: null });
    expect((await funding(bare, '?amount=1')).statusCode).toBe(409);
    expect((await withdrawal({ amount: '1' }, 3, bare)).statusCode).toBe(409);
    const move = await signed(t.app, 3, 'POST', `/api/companies/${bare}/custody`);
    expect(move.statusCode).toBe(409);
    expect(move.json().error.message).toMatch(/finish setting it up/);
  });

  it('moving a company that has its Safe already sweeps nothing and changes nothing', async () => {
    const move = await signed(t.app, 1, 'POST', `/api/companies/${safeCo.id}/custody`);
    expect(move.statusCode, move.body).toBe(200);
    expect(move.json().data).toMatchObject({ custody: { safe }, swept: [] });
    expect((await signed(t.app, 2, 'POST', `/api/companies/${safeCo.id}/custody`)).statusCode).toBe(403);
  });
});

describe('a card sale hands the Safe over', () => {
  let sold: Awaited<ReturnType<typeof staffedCompany>>;
  let soldSafe: Address;
  let build: Awaited<ReturnType<typeof withdrawal>>;
  /** Sends the withdrawal `w` from dev account `sender`'s wallet, signed by dev account `signer`. */
  const execute = async (w: PreparedSafeTx, signer: number, sender: number) =>
    t.chain.wallet(sender).writeContract(await holderSignedCall(w, devAccount(signer)));

  beforeAll(async () => {
    sold = await staffedCompany(t, 4, { name: 'Sold Safe Co' });
    soldSafe = (await funding(sold.id)).json().data.recipients[0].address;
    await trading.fund(4, soldSafe, 50n * USDC);
    // Built for the seller while they hold the card, not sent yet.
    build = await withdrawal({ amount: '10' }, 4, sold.id);
    expect(build.statusCode, build.body).toBe(200);
    const [row] = await t.database.db
      .select({ card: companies.cardTokenId })
      .from(companies)
      .where(eq(companies.id, sold.id));
    await trading.send(
      t.chain.wallet(4).writeContract({
        address: t.chain.chain.contracts.accessCard!,
        abi: AccessCardAbi,
        functionName: 'transferFrom',
        args: [devAccount(4).address, devAccount(6).address, BigInt(row!.card)],
      }),
    );
  }, 240_000);

  it('refuses the seller, whose signature the Safe no longer accepts; the buyer withdraws with their own wallet', async () => {
    // The route asks the chain who holds the card now, before the index has seen the sale.
    expect((await withdrawal({ amount: '10' }, 4, sold.id)).statusCode).toBe(403);
    // The card stream catches up: the buyer is the company's creator.
    const cards = followStream(t.container, accessCardTransfers, { confirmations: 0 })!;
    for (let i = 0; i < 20 && !(await cards.pollOnce()).caughtUp; i++);
    expect((await withdrawal({ amount: '10' }, 4, sold.id)).statusCode).toBe(403);
    // A transaction the seller built and signed before the sale is refused by the Safe (GS024: not the owner's).
    await expect(execute(build.json().data, 4, 4)).rejects.toThrow(/GS024/);
    expect(await trading.usdcOf(soldSafe)).toBe(50n * USDC);
    const res = await withdrawal({ amount: '10' }, 6, sold.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ safe: soldSafe, to: devAccount(6).address });
    const before = await trading.usdcOf(devAccount(6).address);
    await trading.send(execute(res.json().data, 6, 6));
    expect((await trading.usdcOf(devAccount(6).address)) - before).toBe(10n * USDC);
    expect(await trading.usdcOf(soldSafe)).toBe(40n * USDC);
  });
});

describe('moving a company into its Safe within its daily gas budget', () => {
  it('refuses a wallet’s sweep past the budget with 429, and the same request finishes once the day has room', async () => {
    const co = await staffedCompany({ ...t, app: plain.app }, 4, { name: 'Budget Move Co' });
    await trading.fund(4, co.cfo.address, 10n * USDC);
    const day = dayOf(await chainNowMs(t.container));
    const used = async (gasUsed: bigint) =>
      t.database.db
        .insert(companyGasDays)
        .values({ companyId: co.id, day, gasUsed, costWei: 0n, transactions: 0 })
        .onConflictDoUpdate({ target: [companyGasDays.companyId, companyGasDays.day], set: { gasUsed } });
    // Room for less than one wallet's sweep at its worst (an agent's withdrawal's estimate).
    await used(t.container.config.companyGasBudget - 100_000n);
    const move = () => signed(t.app, 4, 'POST', `/api/companies/${co.id}/custody`);
    const refused = await move();
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json().error.code).toBe('GAS_BUDGET_EXCEEDED');
    expect(refused.json().error.message).toContain(co.cfo.id);
    // The Safe is set up (the platform's own gas), the CFO's money still in its wallet.
    const [row] = await t.database.db.select().from(companies).where(eq(companies.id, co.id));
    expect(row!.safeAddress).toMatch(/^0x/);
    const usdcOf = (address: Address) =>
      t.chain.chain.publicClient.readContract({
        address: t.chain.chain.contracts.usdc!,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [address],
      });
    expect(await usdcOf(co.cfo.address)).toBe(10n * USDC);

    await used(0n);
    const done = await move();
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data.swept.map((s: { agentId: string }) => s.agentId)).toEqual([co.cfo.id]);
    expect(await usdcOf(row!.safeAddress as Address)).toBe(10n * USDC);
    expect(await usdcOf(co.cfo.address)).toBe(0n);
  }, 180_000);
});
