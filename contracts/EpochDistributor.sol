// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IEpochDistributor} from "./interfaces/IEpochDistributor.sol";
import {IPrimaryToken} from "./interfaces/IPrimaryToken.sol";

/// @title AI Economy epoch distributor
/// @notice Pays the epoch rewards in primary tokens. Time is cut into epochs of `epochDuration` seconds from
/// `startTime` (epoch 0 first). Once an epoch has ended, the oracle finalizes it in one transaction with the root of
/// a Merkle tree of the companies' scores, the total score and the reward pool, so finalizing costs the same for any
/// number of companies. Each leaf is then claimed once (pull model): the distributor mints
/// rewardPool * score / totalScore (rounded down) to the leaf's `claimTo`.
/// @dev Leaves are the standard leaves of `@openzeppelin/merkle-tree`'s StandardMerkleTree with the leaf encoding
/// `['uint256', 'uint256', 'bytes32', 'address', 'uint256']` = (epoch, index, companyKey, claimTo, score):
/// keccak256(bytes.concat(keccak256(abi.encode(epoch, index, companyKey, claimTo, score)))). The epoch in the leaf
/// keeps a proof of one epoch from being replayed in another; the index selects the leaf's bit in the claimed
/// bitmap, so each leaf pays once.
///
/// Who calls `claim` does not matter: everything that decides the payment (recipient, score) is in the proven leaf,
/// so the platform's oracle claims on a company's behalf and anyone else may do the same.
///
/// Safety: every epoch pays at most its own pool. `totalClaimed + amount` may never exceed `rewardPool`, so even a
/// wrong or malicious tree (scores summing above `totalScore`, more leaves than reported) cannot mint more than the
/// pool, and the pool itself is capped by the owner's `maxRewardPool`. A finalized epoch cannot be changed.
///
/// An epoch without participants is finalized with a zero root, total score, company count and pool: it is marked
/// finalized (so the platform's distribution job is idempotent), nothing can be claimed, and its pool is not carried
/// over to a later epoch.
contract EpochDistributor is IEpochDistributor, Ownable2Step, ReentrancyGuardTransient {
    IPrimaryToken public immutable primaryToken;
    /// @inheritdoc IEpochDistributor
    uint256 public immutable startTime;
    /// @inheritdoc IEpochDistributor
    uint256 public immutable epochDuration;

    /// @inheritdoc IEpochDistributor
    address public oracle;
    /// @inheritdoc IEpochDistributor
    uint256 public maxRewardPool;

    /// @dev An epoch in three slots, laid out for `claim`, which reads the root and the second slot and writes the
    /// second slot (already non-zero since finalize, so no zero-to-non-zero write): the pool, what was claimed and the
    /// total score. The company count and the finalization time, which a successful claim does not need, sit in the
    /// third. Hence the bounds: a pool below 2^96 wei (79 billion tokens) and a total score below 2^64 (the
    /// platform's scores are mean overall scores times 100).
    struct EpochRecord {
        bytes32 merkleRoot;
        uint96 rewardPool;
        uint96 totalClaimed;
        uint64 totalScore;
        uint64 companyCount;
        uint64 finalizedAt;
    }

    mapping(uint256 epoch => EpochRecord) private _epochs;
    /// @dev Bit `index % 256` of word `index / 256` is set once leaf `index` of the epoch has been paid.
    mapping(uint256 epoch => mapping(uint256 wordIndex => uint256 bits)) private _claimedBitmap;

    modifier onlyOracle() {
        if (msg.sender != oracle) revert DistributorNotOracle(msg.sender);
        _;
    }

    /// @param primaryToken_ The token paid out; this contract must hold its MINTER_ROLE.
    /// @param initialOwner Sets the oracle and the pool cap.
    /// @param oracle_ The only account that finalizes epochs.
    /// @param startTime_ First second of epoch 0; not in the future.
    /// @param epochDuration_ Seconds per epoch; not zero.
    /// @param maxRewardPool_ The largest pool an epoch may be finalized with (wei); at most 2^96 - 1.
    constructor(
        IPrimaryToken primaryToken_,
        address initialOwner,
        address oracle_,
        uint256 startTime_,
        uint256 epochDuration_,
        uint256 maxRewardPool_
    ) Ownable(initialOwner) {
        if (address(primaryToken_) == address(0)) revert DistributorInvalidAddress(address(0));
        if (oracle_ == address(0)) revert DistributorInvalidAddress(address(0));
        if (startTime_ > block.timestamp) revert DistributorInvalidStartTime(startTime_, block.timestamp);
        if (epochDuration_ == 0) revert DistributorInvalidDuration(0);
        primaryToken = primaryToken_;
        startTime = startTime_;
        epochDuration = epochDuration_;
        oracle = oracle_;
        emit OracleSet(address(0), oracle_);
        _setMaxRewardPool(maxRewardPool_);
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc IEpochDistributor
    function currentEpoch() public view returns (uint256) {
        return (block.timestamp - startTime) / epochDuration;
    }

    /// @inheritdoc IEpochDistributor
    function epochStart(uint256 epoch) external view returns (uint256) {
        return startTime + epoch * epochDuration;
    }

    /// @inheritdoc IEpochDistributor
    function epochEnd(uint256 epoch) external view returns (uint256) {
        return startTime + (epoch + 1) * epochDuration;
    }

    /// @inheritdoc IEpochDistributor
    function epochInfo(uint256 epoch) external view returns (EpochInfo memory info) {
        EpochRecord storage r = _epochs[epoch];
        info.merkleRoot = r.merkleRoot;
        info.totalScore = r.totalScore;
        info.rewardPool = r.rewardPool;
        info.totalClaimed = r.totalClaimed;
        info.companyCount = r.companyCount;
        info.finalizedAt = r.finalizedAt;
    }

    /// @inheritdoc IEpochDistributor
    function isFinalized(uint256 epoch) external view returns (bool) {
        return _epochs[epoch].finalizedAt != 0;
    }

    /// @inheritdoc IEpochDistributor
    function isClaimed(uint256 epoch, uint256 index) public view returns (bool) {
        return _claimedBitmap[epoch][index >> 8] & (1 << (index & 0xff)) != 0;
    }

    // ---------------------------------------------------------------- oracle

    /// @inheritdoc IEpochDistributor
    /// @dev Only for an ended epoch (`epoch < currentEpoch()`), once. Either a participating epoch (root, total
    /// score and company count all non-zero) or an empty one (all of them and the pool zero). `rewardPool` is
    /// capped by `maxRewardPool` (below 2^96), the total score below 2^64 and the company count below 2^64.
    function finalize(uint256 epoch, bytes32 merkleRoot, uint256 totalScore, uint256 rewardPool, uint256 companyCount)
        external
        onlyOracle
    {
        uint256 current = currentEpoch();
        if (epoch >= current) revert DistributorEpochNotEnded(epoch, current);
        EpochRecord storage info = _epochs[epoch];
        if (info.finalizedAt != 0) revert DistributorAlreadyFinalized(epoch);
        if (rewardPool > maxRewardPool) revert DistributorRewardPoolTooLarge(rewardPool, maxRewardPool);
        if (companyCount > type(uint64).max || totalScore > type(uint64).max) {
            revert DistributorInvalidFinalization(epoch);
        }
        bool empty = merkleRoot == bytes32(0);
        if (empty) {
            if (totalScore != 0 || companyCount != 0 || rewardPool != 0) revert DistributorInvalidFinalization(epoch);
        } else if (totalScore == 0 || companyCount == 0) {
            revert DistributorInvalidFinalization(epoch);
        }
        info.merkleRoot = merkleRoot;
        // Fits: checked above.
        info.totalScore = uint64(totalScore);
        // Fits: rewardPool <= maxRewardPool <= type(uint96).max.
        info.rewardPool = uint96(rewardPool);
        info.companyCount = uint64(companyCount);
        info.finalizedAt = uint64(block.timestamp);
        emit EpochFinalized(epoch, merkleRoot, totalScore, rewardPool, companyCount);
    }

    // ---------------------------------------------------------------- claims

    /// @inheritdoc IEpochDistributor
    /// @dev Reverts for an epoch not finalized, a leaf already paid, a proof that does not lead to the epoch's root
    /// (reported as DistributorInvalidIndex when the index is not below the company count), or an amount that would
    /// take the epoch's claims over its pool. A leaf with score 0 is marked paid and mints nothing. No check of
    /// `claimTo`: the proven leaf is the oracle's, and the token's mint refuses the zero address anyway.
    ///
    /// A successful claim reads two slots of the epoch (root; pool, claimed and total score) and not the third:
    /// - "finalized" is `merkleRoot != 0`: finalize is the only writer of the root, an epoch not finalized has a zero
    ///   root, and an empty epoch (finalized with a zero root) has no leaf to claim either; the third slot is read
    ///   only to tell the two apart in the revert.
    /// - `index < companyCount` is checked only when the proof fails, to name the error: the proof already binds the
    ///   index to a leaf of the oracle's tree, whose indices are 0 to companyCount - 1 (`buildEpochTree`). A wrong
    ///   tree with leaves beyond the count gains nothing from it: what any tree can pay is bounded by the cap
    ///   (`totalClaimed <= rewardPool`), which every claim still checks, as it did before.
    function claim(
        uint256 epoch,
        uint256 index,
        bytes32 companyKey,
        address claimTo,
        uint256 score,
        bytes32[] calldata proof
    ) external nonReentrant returns (uint256 amount) {
        EpochRecord storage info = _epochs[epoch];
        bytes32 root = info.merkleRoot;
        if (root == bytes32(0)) {
            if (info.finalizedAt == 0) revert DistributorNotFinalized(epoch);
            revert DistributorInvalidIndex(epoch, index, 0);
        }
        _setClaimed(epoch, index);
        bytes32 leaf = keccak256(bytes.concat(keccak256(abi.encode(epoch, index, companyKey, claimTo, score))));
        if (!MerkleProof.verifyCalldata(proof, root, leaf)) {
            uint256 count = info.companyCount;
            if (index >= count) revert DistributorInvalidIndex(epoch, index, count);
            revert DistributorInvalidProof(epoch, index);
        }
        amount = _account(info, epoch, score);
        emit Claimed(epoch, index, companyKey, claimTo, amount);
        if (amount > 0) primaryToken.mint(claimTo, amount);
    }

    /// @dev Sets the leaf's bit in the claimed bitmap; reverts when it is set already.
    function _setClaimed(uint256 epoch, uint256 index) private {
        uint256 wordIndex = index >> 8;
        uint256 bit = 1 << (index & 0xff);
        uint256 word = _claimedBitmap[epoch][wordIndex];
        if (word & bit != 0) revert DistributorAlreadyClaimed(epoch, index);
        _claimedBitmap[epoch][wordIndex] = word | bit;
    }

    /// @dev The leaf's reward, rewardPool * score / totalScore rounded down, added to the epoch's `totalClaimed`;
    /// reverts when the epoch's claims would exceed its pool.
    function _account(EpochRecord storage info, uint256 epoch, uint256 score) private returns (uint256 amount) {
        uint256 pool = info.rewardPool;
        uint256 claimed = info.totalClaimed;
        // totalScore > 0: an epoch with a root has one (finalize).
        uint256 total = info.totalScore;
        // pool < 2^96 and score <= total < 2^64: the product fits 256 bits. A larger score pays more than the pool
        // and reverts below; mulDiv gives its amount for the error.
        amount = score <= total ? pool * score / total : Math.mulDiv(pool, score, total);
        uint256 remaining = pool - claimed;
        if (amount > remaining) revert DistributorPoolExceeded(epoch, amount, remaining);
        // Fits: claimed + amount <= rewardPool, a uint96.
        info.totalClaimed = uint96(claimed + amount);
    }

    // ---------------------------------------------------------------- owner

    /// @inheritdoc IEpochDistributor
    function setOracle(address newOracle) external onlyOwner {
        if (newOracle == address(0)) revert DistributorInvalidAddress(address(0));
        emit OracleSet(oracle, newOracle);
        oracle = newOracle;
    }

    /// @inheritdoc IEpochDistributor
    /// @dev Applies to epochs finalized from now on; a finalized epoch keeps its pool.
    function setMaxRewardPool(uint256 newMaxRewardPool) external onlyOwner {
        _setMaxRewardPool(newMaxRewardPool);
    }

    function _setMaxRewardPool(uint256 newMaxRewardPool) private {
        if (newMaxRewardPool > type(uint96).max) revert DistributorMaxRewardPoolTooLarge(newMaxRewardPool);
        maxRewardPool = newMaxRewardPool;
        emit MaxRewardPoolSet(newMaxRewardPool);
    }
}
