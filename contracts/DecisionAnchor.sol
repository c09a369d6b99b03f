// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";
import {IDecisionAnchor} from "./interfaces/IDecisionAnchor.sol";

/// @title Decision anchor
/// @notice On-chain record of the decision hashes of companies (keccak256 of a decision round's canonical JSON).
/// The platform account anchors; the owner sets the platform account. Each hash is anchored once, for good, with
/// the company it belongs to and the block (timestamp and number) that recorded it.
/// @dev Retry semantics: `anchor` reverts for a hash anchored already (DecisionAnchorAlreadyAnchored), so a caller
/// learns its transaction did nothing; `anchorBatch` skips such hashes without an event, so a batch re-sent after a
/// crash, or one overlapping an earlier batch, completes and anchors exactly the missing ones. A batch holds 1 to
/// MAX_BATCH entries (about 26k gas each, so a full batch stays far below a block's gas limit).
/// Storage: one slot per hash (its time, its block and the index of its company), and each company key once, the
/// first time it anchors: a company's later hashes cost one storage write each, not two.
/// Batches by Merkle root: `anchorRoot(root, size)` records one slot for a whole batch, the root of the OpenZeppelin
/// standard Merkle tree (sorted pairs, double-hashed leaves, `leafOf`) of its `(companyKey, decisionHash)` entries;
/// `anchoredAt(companyKey, decisionHash, proof)` checks one entry with its proof, so the cost per round falls with
/// the batch's size (the entries themselves are never written on-chain; the platform serves each round's proof).
contract DecisionAnchor is Ownable2Step, IDecisionAnchor {
    /// @notice Largest batch anchorBatch accepts.
    uint256 public constant MAX_BATCH = 200;

    /// @dev One slot: timestamp, block number, and the company as its 1-based index in `_companyKeys`.
    struct Anchor {
        uint64 anchoredAt;
        uint64 blockNumber;
        uint128 company;
    }

    /// @dev One slot per Merkle root: timestamp, block number and the number of entries of its batch.
    struct Batch {
        uint64 anchoredAt;
        uint64 blockNumber;
        uint128 size;
    }

    /// @notice The account allowed to anchor.
    address public platform;

    mapping(bytes32 decisionHash => Anchor) private _anchors;
    /// @dev Every company key that anchored, each once, in the order they first did.
    bytes32[] private _companyKeys;
    /// @dev 1-based position of a company key in `_companyKeys`; 0 for a key that never anchored.
    mapping(bytes32 companyKey => uint256) private _companyIndex;
    mapping(bytes32 root => Batch) private _batches;

    constructor(address initialOwner, address platform_) Ownable(initialOwner) {
        if (platform_ == address(0)) revert DecisionAnchorInvalidAddress(address(0));
        platform = platform_;
        emit PlatformSet(address(0), platform_);
    }

    // ---------------------------------------------------------------- anchoring

    /// @inheritdoc IDecisionAnchor
    function anchor(bytes32 companyKey, bytes32 decisionHash) external {
        _requirePlatform();
        _requireValid(companyKey, decisionHash);
        uint64 existing = _anchors[decisionHash].anchoredAt;
        if (existing != 0) revert DecisionAnchorAlreadyAnchored(decisionHash, existing);
        _record(companyKey, decisionHash);
    }

    /// @inheritdoc IDecisionAnchor
    function anchorBatch(bytes32[] calldata companyKeys, bytes32[] calldata decisionHashes)
        external
        returns (uint256 anchored)
    {
        _requirePlatform();
        uint256 n = decisionHashes.length;
        if (companyKeys.length != n) revert DecisionAnchorLengthMismatch(companyKeys.length, n);
        if (n == 0 || n > MAX_BATCH) revert DecisionAnchorInvalidBatchSize(n, MAX_BATCH);
        for (uint256 i = 0; i < n; ++i) {
            bytes32 companyKey = companyKeys[i];
            bytes32 decisionHash = decisionHashes[i];
            _requireValid(companyKey, decisionHash);
            if (_anchors[decisionHash].anchoredAt != 0) continue;
            _record(companyKey, decisionHash);
            ++anchored;
        }
    }

    /// @inheritdoc IDecisionAnchor
    function anchorRoot(bytes32 root, uint256 size) external returns (bool anchored) {
        _requirePlatform();
        if (root == bytes32(0)) revert DecisionAnchorInvalidHash(root);
        if (size == 0 || size > type(uint128).max) revert DecisionAnchorInvalidBatchSize(size, type(uint128).max);
        if (_batches[root].anchoredAt != 0) return false;
        uint64 at = uint64(block.timestamp);
        _batches[root] = Batch({anchoredAt: at, blockNumber: uint64(block.number), size: uint128(size)});
        emit BatchAnchored(root, size, at, uint64(block.number));
        return true;
    }

    function _record(bytes32 companyKey, bytes32 decisionHash) private {
        uint64 at = uint64(block.timestamp);
        _anchors[decisionHash] =
            Anchor({anchoredAt: at, blockNumber: uint64(block.number), company: _indexOf(companyKey)});
        emit DecisionAnchored(companyKey, decisionHash, at);
    }

    /// @dev The company's index, giving it one (one storage write, once per company) the first time it anchors.
    function _indexOf(bytes32 companyKey) private returns (uint128 index) {
        index = uint128(_companyIndex[companyKey]);
        if (index == 0) {
            _companyKeys.push(companyKey);
            // Fewer than 2^128 companies can ever anchor (each needs a transaction).
            index = uint128(_companyKeys.length);
            _companyIndex[companyKey] = index;
        }
    }

    function _companyKeyOf(Anchor storage a) private view returns (bytes32) {
        return a.company == 0 ? bytes32(0) : _companyKeys[a.company - 1];
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc IDecisionAnchor
    function anchoredAt(bytes32 decisionHash) external view returns (uint64) {
        return _anchors[decisionHash].anchoredAt;
    }

    /// @inheritdoc IDecisionAnchor
    function anchoredAt(bytes32 companyKey, bytes32 decisionHash, bytes32[] calldata proof)
        external
        view
        returns (uint64)
    {
        return _batches[MerkleProof.processProofCalldata(proof, leafOf(companyKey, decisionHash))].anchoredAt;
    }

    /// @inheritdoc IDecisionAnchor
    function batchOf(bytes32 root) external view returns (uint64 timestamp, uint64 blockNumber, uint256 size) {
        Batch storage b = _batches[root];
        return (b.anchoredAt, b.blockNumber, b.size);
    }

    /// @inheritdoc IDecisionAnchor
    function leafOf(bytes32 companyKey, bytes32 decisionHash) public pure returns (bytes32) {
        return keccak256(bytes.concat(keccak256(abi.encode(companyKey, decisionHash))));
    }

    /// @inheritdoc IDecisionAnchor
    function companyOf(bytes32 decisionHash) external view returns (bytes32) {
        return _companyKeyOf(_anchors[decisionHash]);
    }

    /// @inheritdoc IDecisionAnchor
    function anchorOf(bytes32 decisionHash)
        external
        view
        returns (bytes32 companyKey, uint64 timestamp, uint64 blockNumber)
    {
        Anchor storage a = _anchors[decisionHash];
        return (_companyKeyOf(a), a.anchoredAt, a.blockNumber);
    }

    // ---------------------------------------------------------------- administration

    /// @notice Moves the right to anchor to `newPlatform`. Owner only.
    function setPlatform(address newPlatform) external onlyOwner {
        if (newPlatform == address(0)) revert DecisionAnchorInvalidAddress(address(0));
        address previous = platform;
        platform = newPlatform;
        emit PlatformSet(previous, newPlatform);
    }

    // ---------------------------------------------------------------- internals

    function _requirePlatform() private view {
        if (msg.sender != platform) revert DecisionAnchorUnauthorizedPlatform(msg.sender);
    }

    function _requireValid(bytes32 companyKey, bytes32 decisionHash) private pure {
        if (decisionHash == bytes32(0)) revert DecisionAnchorInvalidHash(decisionHash);
        if (companyKey == bytes32(0)) revert DecisionAnchorInvalidCompanyKey(companyKey);
    }
}
