// How a company's token is named on-chain: its company key (the CREATE2 salt and the launcher's index) and the
// address its CREATE2 deployment lands on, known before the launch is sent.
import { type Address, encodeDeployData, getContractAddress, type Hex, keccak256, toBytes } from 'viem';
import { loadArtifact } from '../../chain/artifacts.ts';
import { CompanyTokenAbi } from '../../chain/generated/abis.ts';

/** The fixed supply the launcher mints (TokenLauncher.TOTAL_SUPPLY): 1,000,000 tokens of 18 decimals. */
export const COMPANY_TOKEN_SUPPLY = 1_000_000n * 10n ** 18n;

/** keccak256 of the company id: one token per company, ever. */
export const companyKey = (companyId: string): Hex => keccak256(toBytes(companyId));

/** Where `launch` deploys the token: CREATE2 from the launcher, salted with the company key. */
export function predictTokenAddress(launcher: Address, key: Hex, name: string, symbol: string): Address {
  const bytecode = encodeDeployData({
    abi: CompanyTokenAbi,
    bytecode: loadArtifact('CompanyToken').bytecode,
    args: [name, symbol, COMPANY_TOKEN_SUPPLY, launcher],
  });
  return getContractAddress({ opcode: 'CREATE2', from: launcher, salt: key, bytecode });
}
