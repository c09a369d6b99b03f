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

    mapping(uint256 epoch => EpochInfo) private _epochs;
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
    /// @param maxRewardPool_ The largest pool an epoch may be finalized with (wei); at most 2^128 - 1.
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
    function epochInfo(uint256 epoch) external view returns (EpochInfo memory) {
        return _epochs[epoch];
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
    /// capped by `maxRewardPool`.
    function finalize(uint256 epoch, bytes32 merkleRoot, uint256 totalScore, uint256 rewardPool, uint256 companyCount)
        external
        onlyOracle
    {
        uint256 current = currentEpoch();
        if (epoch >= current) revert DistributorEpochNotEnded(epoch, current);
        EpochInfo storage info = _epochs[epoch];
        if (info.finalizedAt != 0) revert DistributorAlreadyFinalized(epoch);
        if (rewardPool > maxRewardPool) revert DistributorRewardPoolTooLarge(rewardPool, maxRewardPool);
        if (companyCount > type(uint64).max || totalScore > type(uint128).max) {
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
        info.totalScore = uint128(totalScore);
        // Fits: rewardPool <= maxRewardPool <= type(uint128).max.
        info.rewardPool = uint128(rewardPool);
        info.companyCount = uint64(companyCount);
        info.finalizedAt = uint64(block.timestamp);
        emit EpochFinalized(epoch, merkleRoot, totalScore, rewardPool, companyCount);
    }

    // ---------------------------------------------------------------- claims

    /// @inheritdoc IEpochDistributor
    /// @dev Reverts for an epoch not finalized, an index not below the company count, a leaf already paid, a proof
    /// that does not lead to the epoch's root, or an amount that would take the epoch's claims over its pool. A leaf
    /// with score 0 is marked paid and mints nothing. No check of `claimTo`: the proven leaf is the oracle's, and the
    /// token's mint refuses the zero address anyway.
    function claim(
        uint256 epoch,
        uint256 index,
        bytes32 companyKey,
        address claimTo,
        uint256 score,
        bytes32[] calldata proof
    ) external nonReentrant returns (uint256 amount) {
        EpochInfo storage info = _epochs[epoch];
        if (info.finalizedAt == 0) revert DistributorNotFinalized(epoch);
        if (index >= info.companyCount) revert DistributorInvalidIndex(epoch, index, info.companyCount);
        _setClaimed(epoch, index);
        bytes32 leaf = keccak256(bytes.concat(keccak256(abi.encode(epoch, index, companyKey, claimTo, score))));
        if (!MerkleProof.verifyCalldata(proof, info.merkleRoot, leaf)) revert DistributorInvalidProof(epoch, index);
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
    function _account(EpochInfo storage info, uint256 epoch, uint256 score) private returns (uint256 amount) {
        // totalScore > 0: an empty epoch has companyCount 0, so no index passes the check in `claim`.
        amount = Math.mulDiv(info.rewardPool, score, info.totalScore);
        uint256 claimed = info.totalClaimed;
        uint256 remaining = info.rewardPool - claimed;
        if (amount > remaining) revert DistributorPoolExceeded(epoch, amount, remaining);
        // Fits: claimed + amount <= rewardPool, a uint128.
        info.totalClaimed = uint128(claimed + amount);
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
        if (newMaxRewardPool > type(uint128).max) revert DistributorMaxRewardPoolTooLarge(newMaxRewardPool);
        maxRewardPool = newMaxRewardPool;
        emit MaxRewardPoolSet(newMaxRewardPool);
    }
}
