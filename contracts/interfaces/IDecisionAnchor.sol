// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The decision anchor as docs/contracts.md names it for clients: the
/// platform records the keccak256 hash of each decision round of a company once, and anyone reads when it was
/// recorded. A hash is anchored at most once, for good; nothing is ever removed or changed.
interface IDecisionAnchor {
    /// @notice The caller is not the platform account.
    error DecisionAnchorUnauthorizedPlatform(address caller);
    /// @notice The hash was anchored before (in `anchor`; `anchorBatch` skips such hashes instead).
    error DecisionAnchorAlreadyAnchored(bytes32 decisionHash, uint64 anchoredAt);
    /// @notice The zero hash cannot be anchored (anchoredAt answers 0 for "not anchored").
    error DecisionAnchorInvalidHash(bytes32 decisionHash);
    /// @notice The zero company key cannot be used (companyOf answers 0 for "not anchored").
    error DecisionAnchorInvalidCompanyKey(bytes32 companyKey);
    /// @notice anchorBatch got arrays of different lengths.
    error DecisionAnchorLengthMismatch(uint256 companyKeys, uint256 decisionHashes);
    /// @notice anchorBatch got an empty batch or more than MAX_BATCH entries.
    error DecisionAnchorInvalidBatchSize(uint256 size, uint256 max);
    /// @notice The zero address cannot be the platform.
    error DecisionAnchorInvalidAddress(address account);

    /// @notice `decisionHash` of the company `companyKey` was anchored in a block with timestamp `anchoredAt`.
    event DecisionAnchored(bytes32 indexed companyKey, bytes32 indexed decisionHash, uint64 anchoredAt);
    /// @notice The owner changed the platform account (also emitted once at deployment, from the zero address).
    event PlatformSet(address indexed previousPlatform, address indexed newPlatform);

    /// @notice Anchors one hash for a company. Platform only; reverts with DecisionAnchorAlreadyAnchored when the
    /// hash is anchored already.
    function anchor(bytes32 companyKey, bytes32 decisionHash) external;

    /// @notice Anchors up to MAX_BATCH hashes, `decisionHashes[i]` for `companyKeys[i]`. Platform only. A hash
    /// anchored already (before, or earlier in the same batch) is skipped: it keeps its first anchoring and emits
    /// nothing, so a batch re-sent after a crash completes instead of reverting.
    /// @return anchored How many hashes this call anchored (the rest were skipped).
    function anchorBatch(bytes32[] calldata companyKeys, bytes32[] calldata decisionHashes)
        external
        returns (uint256 anchored);

    /// @notice Timestamp of the block that anchored the hash; 0 when it is not anchored.
    function anchoredAt(bytes32 decisionHash) external view returns (uint64);

    /// @notice The company key the hash was anchored for; zero when it is not anchored.
    function companyOf(bytes32 decisionHash) external view returns (bytes32);

    /// @notice Everything recorded for the hash (all zero when it is not anchored). `blockNumber` lets a reader
    /// fetch the DecisionAnchored log, and so the transaction hash, from that one block.
    function anchorOf(bytes32 decisionHash)
        external
        view
        returns (bytes32 companyKey, uint64 timestamp, uint64 blockNumber);
}
