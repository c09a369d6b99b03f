// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The ERC-8004 ("Trustless Agents") identity registry as the January 2026 revision of the standard defines
/// it: every agent is an ERC-721 token (`agentId` = tokenId, `agentURI` = tokenURI, pointing at the agent's
/// registration file), with free-form on-chain metadata and one reserved, signature-verified key, "agentWallet".
/// @dev AGENT IDS START AT 0: the first registration gets id 0. Consumers must never use 0 (or a falsy id) to mean
/// "no agent"; keep "not registered" as a separate flag or a null.
/// Authorization failures use OpenZeppelin's ERC-6093 errors: `ERC721NonexistentToken(agentId)` for an id that was
/// never minted and `ERC721InsufficientApproval(caller, agentId)` for a caller that is neither the owner nor an
/// approved operator of the agent.
interface IIdentityRegistry {
    /// @notice One on-chain metadata item given at registration.
    struct MetadataEntry {
        string metadataKey;
        bytes metadataValue;
    }

    /// @notice The key is reserved ("agentWallet"): it changes only through setAgentWallet / unsetAgentWallet.
    error IdentityRegistryReservedMetadataKey(string metadataKey);
    /// @notice The zero address cannot be an agent wallet (unsetAgentWallet clears it).
    error IdentityRegistryInvalidWallet(address wallet);
    /// @notice The wallet signature's deadline has passed.
    error IdentityRegistryExpiredSignature(uint256 deadline);
    /// @notice The wallet signature's deadline is further ahead than MAX_DEADLINE_DELAY allows.
    error IdentityRegistryDeadlineTooFar(uint256 deadline, uint256 maxDeadline);
    /// @notice The signature is not the new wallet's (ECDSA for an EOA, ERC-1271 for a contract wallet).
    error IdentityRegistryInvalidWalletSignature(address wallet);

    /// @notice A new agent was minted to `owner` (after its ERC-721 Transfer event).
    event Registered(uint256 indexed agentId, string agentURI, address indexed owner);
    /// @notice The agent's URI (its ERC-721 tokenURI) changed.
    event URIUpdated(uint256 indexed agentId, string newURI, address indexed updatedBy);
    /// @notice A metadata value changed; also emitted for the reserved key "agentWallet" at registration (the
    /// registrant), on setAgentWallet (the new wallet, 20 bytes) and when it is cleared (empty value).
    event MetadataSet(
        uint256 indexed agentId, string indexed indexedMetadataKey, string metadataKey, bytes metadataValue
    );

    /// @notice Mints the next agent id to the caller with a URI and metadata entries (none may use "agentWallet").
    /// The agent wallet starts as the caller.
    /// @return agentId The new id; the first ever is 0.
    function register(string calldata agentURI, MetadataEntry[] calldata metadata)
        external
        returns (uint256 agentId);

    /// @notice Mints the next agent id to the caller with a URI. The agent wallet starts as the caller.
    function register(string calldata agentURI) external returns (uint256 agentId);

    /// @notice Mints the next agent id to the caller with an empty URI, to be set later with setAgentURI.
    function register() external returns (uint256 agentId);

    /// @notice Replaces the agent's URI. Owner or approved operator only.
    function setAgentURI(uint256 agentId, string calldata newURI) external;

    /// @notice The stored value, or empty bytes. For "agentWallet" it is the 20-byte packed wallet address
    /// (abi.encodePacked), or empty bytes while no wallet is set.
    function getMetadata(uint256 agentId, string calldata metadataKey) external view returns (bytes memory);

    /// @notice Sets one metadata value. Owner or approved operator only; "agentWallet" is refused.
    function setMetadata(uint256 agentId, string calldata metadataKey, bytes calldata metadataValue) external;

    /// @notice Points the agent's wallet at `newWallet`, which proves control by signing the EIP-712 struct
    /// `AgentWalletSet(uint256 agentId,address newWallet,address owner,uint256 deadline)` (domain name
    /// "ERC8004IdentityRegistry", version "1", this chain and registry), `owner` being the agent's current owner.
    /// Owner or approved operator only; the deadline must not have passed nor be more than MAX_DEADLINE_DELAY ahead.
    function setAgentWallet(uint256 agentId, address newWallet, uint256 deadline, bytes calldata signature)
        external;

    /// @notice The agent's verified wallet: the registrant until changed, zero after unsetAgentWallet or after the
    /// agent was transferred (a new owner must verify a wallet again). Reverts for an id never minted.
    function getAgentWallet(uint256 agentId) external view returns (address);

    /// @notice Clears the agent's wallet. Owner or approved operator only.
    function unsetAgentWallet(uint256 agentId) external;
}
