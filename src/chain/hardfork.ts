// The EVM version of the platform's chain, one constant for both ends: scripts/build-contracts.ts compiles the
// contracts for it (solc's evmVersion) and src/chain/anvil.ts runs every local and test chain on it (anvil's
// --hardfork), so the tests run the bytecode on the rules it was compiled for. Prague is what Base runs: Base took
// Ethereum's Prague (Pectra) execution rules with the OP Stack's Isthmus upgrade (mainnet 2025-05-09, Sepolia
// 2025-04-17), and its later upgrades have not adopted Osaka's. It is also the newest EVM version the pinned solc
// (0.8.30) compiles for without experimental flags. anvil and solc name it alike.
export const EVM_VERSION = 'prague';
