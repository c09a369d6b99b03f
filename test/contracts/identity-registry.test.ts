// The ERC-8004 identity registry: the three register forms (ids from 0), agent URI and metadata with their
// permissions, the agent wallet verified by an EIP-712 signature (EOA and ERC-1271), cleared by unsetAgentWallet and
// by any transfer, the platform's helpers in src/chain/identity.ts, and the gas of the common calls.

import { IdentityRegistryAbi } from '@ai-economy/shared/abis';
import { type Address, getAddress, type Hex, keccak256, stringToHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { loadArtifact } from '../../src/chain/artifacts.ts';
import { devAccount } from '../../src/chain/client.ts';
import {
  AGENT_WALLET_DOMAIN,
  AGENT_WALLET_MAX_DEADLINE_DELAY,
  agentWalletTypedData,
  registeredAgentId,
} from '../../src/chain/contracts/identity.ts';
import { expectRevert } from '../helpers/revert.ts';
import { contractHelpers, useCardChain, ZERO } from './fixture.ts';

const f = useCardChain();

const WALLET_KEY = 'agentWallet';
const WALLET_KEY_TOPIC = keccak256(stringToHex(WALLET_KEY));
const registry = () => f.chain.chain.contracts.identityRegistry!;
const chainId = () => f.chain.chain.chainId;
/** abi.encodePacked(address), as the registry stores and emits an agent wallet. */
const packed = (a: Address) => a.toLowerCase() as Hex;

type Entry = { metadataKey: string; metadataValue: Hex };

const { write, simulate, read, events } = contractHelpers(f, registry, IdentityRegistryAbi);

/** Registers an agent for account i with the one-argument form and returns its id. */
async function registerAgent(i: number, uri = `https://agents.example/${i}.json`): Promise<bigint> {
  return registeredAgentId(await write(i, 'register', [uri]), registry());
}

async function latestTimestamp(): Promise<bigint> {
  return (await f.client.getBlock({ blockTag: 'latest' })).timestamp;
}

/** Dev account `signer` signs AgentWalletSet for `newWallet` with the platform's helper. */
function signWallet(signer: number, agentId: bigint, newWallet: Address, owner: Address, deadline: bigint) {
  return devAccount(signer).signTypedData(
    agentWalletTypedData(registry(), chainId(), agentId, newWallet, owner, deadline),
  );
}

describe('register', () => {
  it('hands out ids from 0 across the three forms, with Transfer, Registered and MetadataSet events', async () => {
    const [a, b] = [f.addr(1), f.addr(2)];
    const { result: first } = await simulate(1, 'register');
    expect(first).toBe(0n);

    const r0 = await write(1, 'register');
    expect(registeredAgentId(r0)).toBe(0n);
    expect(events(r0)).toEqual([
      ['Transfer', { from: ZERO, to: a, tokenId: 0n }],
      ['Registered', { agentId: 0n, agentURI: '', owner: a }],
      [
        'MetadataSet',
        { agentId: 0n, indexedMetadataKey: WALLET_KEY_TOPIC, metadataKey: WALLET_KEY, metadataValue: packed(a) },
      ],
    ]);

    const r1 = await write(2, 'register', ['ipfs://agent-one']);
    expect(registeredAgentId(r1, registry())).toBe(1n);
    expect(events(r1)).toEqual([
      ['Transfer', { from: ZERO, to: b, tokenId: 1n }],
      ['MetadataUpdate', { _tokenId: 1n }],
      ['Registered', { agentId: 1n, agentURI: 'ipfs://agent-one', owner: b }],
      [
        'MetadataSet',
        { agentId: 1n, indexedMetadataKey: WALLET_KEY_TOPIC, metadataKey: WALLET_KEY, metadataValue: packed(b) },
      ],
    ]);

    const metadata: Entry[] = [
      { metadataKey: 'agentName', metadataValue: stringToHex('ceo.acme') },
      { metadataKey: 'role', metadataValue: '0x01' },
    ];
    const r2 = await write(1, 'register', ['https://agents.example/2.json', metadata]);
    expect(registeredAgentId(r2)).toBe(2n);
    expect(events(r2)).toEqual([
      ['Transfer', { from: ZERO, to: a, tokenId: 2n }],
      ['MetadataUpdate', { _tokenId: 2n }],
      ['Registered', { agentId: 2n, agentURI: 'https://agents.example/2.json', owner: a }],
      [
        'MetadataSet',
        { agentId: 2n, indexedMetadataKey: WALLET_KEY_TOPIC, metadataKey: WALLET_KEY, metadataValue: packed(a) },
      ],
      ...metadata.map((m) => [
        'MetadataSet',
        { agentId: 2n, indexedMetadataKey: keccak256(stringToHex(m.metadataKey)), ...m },
      ]),
    ]);

    expect(await read('ownerOf', [0n])).toBe(a);
    expect(await read('ownerOf', [1n])).toBe(b);
    expect(await read('ownerOf', [2n])).toBe(a);
    expect(await read('balanceOf', [a])).toBe(2n);
    expect(await read('tokenURI', [0n])).toBe('');
    expect(await read('tokenURI', [1n])).toBe('ipfs://agent-one');
    expect(await read('tokenURI', [2n])).toBe('https://agents.example/2.json');
    expect(await read('getMetadata', [2n, 'agentName'])).toBe(stringToHex('ceo.acme'));
    expect(await read('getMetadata', [2n, 'role'])).toBe('0x01');
    expect(await read('getMetadata', [2n, 'unknown'])).toBe('0x');
    expect(await read('name')).toBe('AgentIdentity');
    expect(await read('symbol')).toBe('AGENT');
    // ERC-721 and ERC-4906 (metadata update events).
    expect(await read('supportsInterface', ['0x80ac58cd'])).toBe(true);
    expect(await read('supportsInterface', ['0x49064906'])).toBe(true);
  });

  it('refuses the reserved key "agentWallet" among the registration metadata, minting nothing', async () => {
    const metadata: Entry[] = [
      { metadataKey: 'agentName', metadataValue: '0x01' },
      { metadataKey: WALLET_KEY, metadataValue: packed(f.addr(5)) },
    ];
    await expectRevert(simulate(1, 'register', ['ipfs://x', metadata]), 'IdentityRegistryReservedMetadataKey', [
      WALLET_KEY,
    ]);
    await f.minedRevert(
      1,
      { address: registry(), abi: IdentityRegistryAbi, functionName: 'register', args: ['ipfs://x', metadata] },
      'IdentityRegistryReservedMetadataKey',
      [WALLET_KEY],
    );
    expect(await read('balanceOf', [f.addr(1)])).toBe(0n);
    expect(await registerAgent(2)).toBe(0n); // the failed attempt consumed no id
  });

  it('registeredAgentId refuses a receipt without exactly one Registered event', async () => {
    const id = await registerAgent(1);
    const receipt = await write(1, 'setAgentURI', [id, 'ipfs://new']);
    expect(() => registeredAgentId(receipt)).toThrow(/found 0/);
    const other = await write(2, 'register');
    expect(() => registeredAgentId(other, f.card)).toThrow(/found 0/);
  });
});

describe('setAgentURI', () => {
  it('lets the owner and an approved operator replace the URI, with URIUpdated naming the caller', async () => {
    const id = await registerAgent(1);
    const r = await write(1, 'setAgentURI', [id, 'ipfs://v2']);
    expect(events(r)).toEqual([
      ['MetadataUpdate', { _tokenId: id }],
      ['URIUpdated', { agentId: id, newURI: 'ipfs://v2', updatedBy: f.addr(1) }],
    ]);
    expect(await read('tokenURI', [id])).toBe('ipfs://v2');

    await write(1, 'approve', [f.addr(3), id]);
    const byOperator = await write(3, 'setAgentURI', [id, 'ipfs://v3']);
    expect(events(byOperator)).toContainEqual([
      'URIUpdated',
      { agentId: id, newURI: 'ipfs://v3', updatedBy: f.addr(3) },
    ]);
    expect(await read('tokenURI', [id])).toBe('ipfs://v3');
  });

  it('refuses anyone else, and an agent that does not exist', async () => {
    const id = await registerAgent(1);
    await expectRevert(simulate(2, 'setAgentURI', [id, 'ipfs://evil']), 'ERC721InsufficientApproval', [f.addr(2), id]);
    await expectRevert(simulate(1, 'setAgentURI', [7n, 'ipfs://x']), 'ERC721NonexistentToken', [7n]);
    expect(await read('tokenURI', [id])).toBe('https://agents.example/1.json');
  });
});

describe('setMetadata / getMetadata', () => {
  it('stores, overwrites and returns values set by the owner, with MetadataSet', async () => {
    const id = await registerAgent(1);
    const r = await write(1, 'setMetadata', [id, 'agentName', stringToHex('cfo.acme')]);
    expect(events(r)).toEqual([
      [
        'MetadataSet',
        {
          agentId: id,
          indexedMetadataKey: keccak256(stringToHex('agentName')),
          metadataKey: 'agentName',
          metadataValue: stringToHex('cfo.acme'),
        },
      ],
    ]);
    expect(await read('getMetadata', [id, 'agentName'])).toBe(stringToHex('cfo.acme'));
    await write(1, 'setMetadata', [id, 'agentName', '0x']);
    expect(await read('getMetadata', [id, 'agentName'])).toBe('0x');
  });

  it('refuses others, the reserved key "agentWallet", and unknown agents', async () => {
    const id = await registerAgent(1);
    await expectRevert(simulate(2, 'setMetadata', [id, 'agentName', '0x01']), 'ERC721InsufficientApproval', [
      f.addr(2),
      id,
    ]);
    await expectRevert(
      simulate(1, 'setMetadata', [id, WALLET_KEY, packed(f.addr(1))]),
      'IdentityRegistryReservedMetadataKey',
      [WALLET_KEY],
    );
    await expectRevert(simulate(1, 'setMetadata', [9n, 'agentName', '0x01']), 'ERC721NonexistentToken', [9n]);
    // Only the exact key is reserved.
    await write(1, 'setMetadata', [id, 'AgentWallet', '0x02']);
    expect(await read('getMetadata', [id, 'AgentWallet'])).toBe('0x02');
    expect(await read('getAgentWallet', [id])).toBe(f.addr(1));
  });
});

describe('agent wallet', () => {
  it('defaults to the registrant, readable through getAgentWallet and getMetadata("agentWallet")', async () => {
    const id = await registerAgent(2);
    expect(await read('getAgentWallet', [id])).toBe(f.addr(2));
    expect(await read('getMetadata', [id, WALLET_KEY])).toBe(packed(f.addr(2)));
    await expectRevert(read('getAgentWallet', [5n]), 'ERC721NonexistentToken', [5n]);
    expect(await read('getMetadata', [5n, WALLET_KEY])).toBe('0x');
  });

  it('the helper typed data matches the contract EIP-712 domain and verifies on-chain', async () => {
    const [fields, name, version, domainChainId, verifyingContract] = await read<readonly unknown[]>('eip712Domain');
    expect(fields).toBe('0x0f');
    expect({ name, version, chainId: Number(domainChainId), verifyingContract }).toEqual({
      ...AGENT_WALLET_DOMAIN,
      chainId: chainId(),
      verifyingContract: registry(),
    });
    expect(await read('MAX_DEADLINE_DELAY')).toBe(AGENT_WALLET_MAX_DEADLINE_DELAY);
    expect(await read('AGENT_WALLET_SET_TYPEHASH')).toBe(
      keccak256(stringToHex('AgentWalletSet(uint256 agentId,address newWallet,address owner,uint256 deadline)')),
    );

    const id = await registerAgent(1);
    const owner = f.addr(1);
    const newWallet = devAccount(4).address;
    const deadline = (await latestTimestamp()) + 120n;
    const signature = await signWallet(4, id, newWallet, owner, deadline);
    const r = await write(1, 'setAgentWallet', [id, newWallet, deadline, signature]);
    expect(events(r)).toEqual([
      [
        'MetadataSet',
        {
          agentId: id,
          indexedMetadataKey: WALLET_KEY_TOPIC,
          metadataKey: WALLET_KEY,
          metadataValue: packed(newWallet),
        },
      ],
    ]);
    expect(await read('getAgentWallet', [id])).toBe(newWallet);
    expect(await read('getMetadata', [id, WALLET_KEY])).toBe(packed(newWallet));
  });

  it('lets an approved operator set it, with the owner (not the operator) in the signed struct', async () => {
    const id = await registerAgent(1);
    await write(1, 'setApprovalForAll', [f.addr(3), true]);
    const newWallet = devAccount(4).address;
    const deadline = (await latestTimestamp()) + 120n;
    const asOperator = await signWallet(4, id, newWallet, f.addr(3), deadline);
    await expectRevert(
      simulate(3, 'setAgentWallet', [id, newWallet, deadline, asOperator]),
      'IdentityRegistryInvalidWalletSignature',
      [newWallet],
    );
    const asOwner = await signWallet(4, id, newWallet, f.addr(1), deadline);
    await write(3, 'setAgentWallet', [id, newWallet, deadline, asOwner]);
    expect(await read('getAgentWallet', [id])).toBe(newWallet);
  });

  it('refuses a signature by another key, or for another agent, registry or chain', async () => {
    const id = await registerAgent(1);
    await registerAgent(1); // agent 1, same owner
    const owner = f.addr(1);
    const newWallet = devAccount(4).address;
    const deadline = (await latestTimestamp()) + 120n;
    const wrongSigner = await signWallet(5, id, newWallet, owner, deadline);
    const otherAgent = await signWallet(4, id + 1n, newWallet, owner, deadline);
    const account = devAccount(4);
    const otherRegistry = await account.signTypedData(
      agentWalletTypedData(f.card, chainId(), id, newWallet, owner, deadline),
    );
    const otherChain = await account.signTypedData(
      agentWalletTypedData(registry(), 8453, id, newWallet, owner, deadline),
    );
    for (const signature of [wrongSigner, otherAgent, otherRegistry, otherChain, '0x' as Hex, `0x${'00'.repeat(65)}`]) {
      await expectRevert(
        simulate(1, 'setAgentWallet', [id, newWallet, deadline, signature]),
        'IdentityRegistryInvalidWalletSignature',
        [newWallet],
      );
    }
    // A signature for a later deadline than the one sent does not match either.
    const signedLater = await signWallet(4, id, newWallet, owner, deadline + 1n);
    await expectRevert(
      simulate(1, 'setAgentWallet', [id, newWallet, deadline, signedLater]),
      'IdentityRegistryInvalidWalletSignature',
      [newWallet],
    );
    await f.minedRevert(
      1,
      {
        address: registry(),
        abi: IdentityRegistryAbi,
        functionName: 'setAgentWallet',
        args: [id, newWallet, deadline, wrongSigner],
      },
      'IdentityRegistryInvalidWalletSignature',
      [newWallet],
    );
    expect(await read('getAgentWallet', [id])).toBe(owner);
  });

  it('refuses an expired deadline and one more than MAX_DEADLINE_DELAY ahead, and accepts both bounds', async () => {
    const id = await registerAgent(1);
    const owner = f.addr(1);
    const newWallet = devAccount(4).address;
    const now = await latestTimestamp();

    const expired = now - 1n;
    await expectRevert(
      simulate(1, 'setAgentWallet', [id, newWallet, expired, await signWallet(4, id, newWallet, owner, expired)]),
      'IdentityRegistryExpiredSignature',
      [expired],
    );
    const tooFar = now + 3_600n;
    const { args } = await expectRevert(
      simulate(1, 'setAgentWallet', [id, newWallet, tooFar, await signWallet(4, id, newWallet, owner, tooFar)]),
      'IdentityRegistryDeadlineTooFar',
    );
    expect(args[0]).toBe(tooFar);
    expect(args[1]).toBeLessThan(tooFar);

    // Bounds, on mined blocks with a pinned timestamp: deadline == block time + MAX_DEADLINE_DELAY, then == block time.
    const t1 = now + 100n;
    await f.client.setNextBlockTimestamp({ timestamp: t1 });
    const far = t1 + AGENT_WALLET_MAX_DEADLINE_DELAY;
    await write(1, 'setAgentWallet', [id, newWallet, far, await signWallet(4, id, newWallet, owner, far)]);
    expect(await read('getAgentWallet', [id])).toBe(newWallet);

    const t2 = t1 + 100n;
    const other = devAccount(5).address;
    const sig = await signWallet(5, id, other, owner, t2);
    await f.client.setNextBlockTimestamp({ timestamp: t2 });
    await write(1, 'setAgentWallet', [id, other, t2, sig]);
    expect(await read('getAgentWallet', [id])).toBe(other);

    // One second past either bound is refused.
    const t3 = t2 + 100n;
    const late = await signWallet(4, id, newWallet, owner, t3 - 1n);
    await f.client.setNextBlockTimestamp({ timestamp: t3 });
    const lateHash = await f.wallet(1).writeContract({
      address: registry(),
      abi: IdentityRegistryAbi,
      functionName: 'setAgentWallet',
      args: [id, newWallet, t3 - 1n, late],
      gas: 500_000n,
    });
    expect((await f.client.waitForTransactionReceipt({ hash: lateHash })).status).toBe('reverted');
    const t4 = t3 + 100n;
    const early = t4 + AGENT_WALLET_MAX_DEADLINE_DELAY + 1n;
    const earlySig = await signWallet(4, id, newWallet, owner, early);
    await f.client.setNextBlockTimestamp({ timestamp: t4 });
    const earlyHash = await f.wallet(1).writeContract({
      address: registry(),
      abi: IdentityRegistryAbi,
      functionName: 'setAgentWallet',
      args: [id, newWallet, early, earlySig],
      gas: 500_000n,
    });
    expect((await f.client.waitForTransactionReceipt({ hash: earlyHash })).status).toBe('reverted');
    expect(await read('getAgentWallet', [id])).toBe(other);
  });

  it('refuses a caller who is neither owner nor operator, the zero wallet and unknown agents', async () => {
    const id = await registerAgent(1);
    const newWallet = devAccount(4).address;
    const deadline = (await latestTimestamp()) + 120n;
    const signature = await signWallet(4, id, newWallet, f.addr(1), deadline);
    await expectRevert(
      simulate(2, 'setAgentWallet', [id, newWallet, deadline, signature]),
      'ERC721InsufficientApproval',
      [f.addr(2), id],
    );
    // The new wallet itself is not the owner either.
    await expectRevert(
      simulate(4, 'setAgentWallet', [id, newWallet, deadline, signature]),
      'ERC721InsufficientApproval',
      [newWallet, id],
    );
    await expectRevert(
      simulate(1, 'setAgentWallet', [id, ZERO, deadline, signature]),
      'IdentityRegistryInvalidWallet',
      [ZERO],
    );
    await expectRevert(simulate(1, 'setAgentWallet', [3n, newWallet, deadline, signature]), 'ERC721NonexistentToken', [
      3n,
    ]);
  });

  it('accepts a contract wallet through ERC-1271 and refuses it when its signer is wrong', async () => {
    const artifact = loadArtifact('MockContractWallet');
    const deployHash = await f.wallet(1).deployContract({
      abi: artifact.abi,
      bytecode: artifact.bytecode,
      args: [devAccount(6).address],
    });
    const contractWallet = getAddress(
      (await f.client.waitForTransactionReceipt({ hash: deployHash })).contractAddress!,
    );
    const id = await registerAgent(1);
    const deadline = (await latestTimestamp()) + 120n;
    const bySomeoneElse = await signWallet(7, id, contractWallet, f.addr(1), deadline);
    await expectRevert(
      simulate(1, 'setAgentWallet', [id, contractWallet, deadline, bySomeoneElse]),
      'IdentityRegistryInvalidWalletSignature',
      [contractWallet],
    );
    const byItsOwner = await signWallet(6, id, contractWallet, f.addr(1), deadline);
    await write(1, 'setAgentWallet', [id, contractWallet, deadline, byItsOwner]);
    expect(await read('getAgentWallet', [id])).toBe(contractWallet);
  });

  it('unsetAgentWallet clears it for the owner and refuses others', async () => {
    const id = await registerAgent(1);
    await expectRevert(simulate(2, 'unsetAgentWallet', [id]), 'ERC721InsufficientApproval', [f.addr(2), id]);
    const r = await write(1, 'unsetAgentWallet', [id]);
    expect(events(r)).toEqual([
      [
        'MetadataSet',
        { agentId: id, indexedMetadataKey: WALLET_KEY_TOPIC, metadataKey: WALLET_KEY, metadataValue: '0x' },
      ],
    ]);
    expect(await read('getAgentWallet', [id])).toBe(ZERO);
    expect(await read('getMetadata', [id, WALLET_KEY])).toBe('0x');
    await expectRevert(simulate(1, 'unsetAgentWallet', [4n]), 'ERC721NonexistentToken', [4n]);
  });

  it('a transfer clears the wallet, voids signatures naming the old owner, and keeps URI and metadata', async () => {
    const metadata: Entry[] = [{ metadataKey: 'agentName', metadataValue: '0xaa' }];
    const id = registeredAgentId(await write(1, 'register', ['ipfs://kept', metadata]));
    const newWallet = devAccount(4).address;
    const deadline = (await latestTimestamp()) + 240n;
    const signature = await signWallet(4, id, newWallet, f.addr(1), deadline);
    await write(1, 'setAgentWallet', [id, newWallet, deadline, signature]);

    const r = await write(1, 'transferFrom', [f.addr(1), f.addr(2), id]);
    expect(events(r)).toEqual([
      ['Transfer', { from: f.addr(1), to: f.addr(2), tokenId: id }],
      [
        'MetadataSet',
        { agentId: id, indexedMetadataKey: WALLET_KEY_TOPIC, metadataKey: WALLET_KEY, metadataValue: '0x' },
      ],
    ]);
    expect(await read('getAgentWallet', [id])).toBe(ZERO);
    expect(await read('getMetadata', [id, WALLET_KEY])).toBe('0x');
    expect(await read('tokenURI', [id])).toBe('ipfs://kept');
    expect(await read('getMetadata', [id, 'agentName'])).toBe('0xaa');

    // The old proof named the previous owner: the new owner cannot reuse it, and the old owner lost the right.
    await expectRevert(
      simulate(2, 'setAgentWallet', [id, newWallet, deadline, signature]),
      'IdentityRegistryInvalidWalletSignature',
      [newWallet],
    );
    await expectRevert(
      simulate(1, 'setAgentWallet', [id, newWallet, deadline, signature]),
      'ERC721InsufficientApproval',
      [f.addr(1), id],
    );
    const fresh = await signWallet(4, id, newWallet, f.addr(2), deadline);
    await write(2, 'setAgentWallet', [id, newWallet, deadline, fresh]);
    expect(await read('getAgentWallet', [id])).toBe(newWallet);

    // safeTransferFrom clears it as well.
    await write(2, 'safeTransferFrom', [f.addr(2), f.addr(3), id]);
    expect(await read('getAgentWallet', [id])).toBe(ZERO);
  });
});

describe('gas', () => {
  it('records the gas of register(uri), register(uri, metadata), setAgentWallet and a transfer', async () => {
    const cid = 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi'; // a 66-character CIDv1 URI
    const first = await write(1, 'register', [cid]);
    const second = await write(2, 'register', [cid]);
    const withMetadata = await write(3, 'register', [
      cid,
      [{ metadataKey: 'agentName', metadataValue: stringToHex('ceo.acme.agents') }],
    ]);
    const shortUri = await write(6, 'register', ['https://a.example/1.json']);
    const id = registeredAgentId(second);
    const newWallet = devAccount(4).address;
    const deadline = (await latestTimestamp()) + 120n;
    const setWallet = await write(2, 'setAgentWallet', [
      id,
      newWallet,
      deadline,
      await signWallet(4, id, newWallet, f.addr(2), deadline),
    ]);
    const transfer = await write(2, 'transferFrom', [f.addr(2), f.addr(5), id]);
    const gas = {
      'register(cid uri) (first agent)': first.gasUsed,
      'register(cid uri)': second.gasUsed,
      'register(cid uri, 1 entry)': withMetadata.gasUsed,
      'register(24-char uri)': shortUri.gasUsed,
      'setAgentWallet (EOA)': setWallet.gasUsed,
      transferFrom: transfer.gasUsed,
    };
    console.log('IdentityRegistry gas used', Object.fromEntries(Object.entries(gas).map(([k, v]) => [k, Number(v)])));
    // Loose ceilings, to notice a regression by an order of magnitude, not to pin exact numbers.
    expect(first.gasUsed).toBeLessThan(250_000n);
    expect(second.gasUsed).toBeLessThanOrEqual(first.gasUsed);
    expect(setWallet.gasUsed).toBeLessThan(80_000n);
    expect(transfer.gasUsed).toBeLessThan(80_000n);
  });
});
