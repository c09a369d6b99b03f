// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The epoch distributor's interface: the functions docs/contracts.md fixes for clients (`currentEpoch`, `claim`,
/// `isClaimed`), the views the HTTP layer reads, the oracle's `finalize` and the owner's settings.
interface IEpochDistributor {
    /// @notice One epoch's finalized figures as `epochInfo` reports them (stored in three slots, of which a claim reads
    /// two). All zero until the oracle finalizes it (`finalizedAt` is then set).
    struct EpochInfo {
        /// @notice Root of the epoch's Merkle tree; zero for an epoch without participants.
        bytes32 merkleRoot;
        /// @notice Sum of the scores of all leaves, as the oracle reported it; below 2^64.
        uint128 totalScore;
        /// @notice Primary tokens (wei) the epoch pays at most; below 2^96.
        uint128 rewardPool;
        /// @notice Primary tokens (wei) paid by claims so far; never above `rewardPool`.
        uint128 totalClaimed;
        /// @notice Number of leaves; a leaf index must be below it.
        uint64 companyCount;
        /// @notice Block timestamp of the finalization.
        uint64 finalizedAt;
    }

    error DistributorInvalidAddress(address account);
    error DistributorInvalidStartTime(uint256 startTime, uint256 nowTime);
    error DistributorInvalidDuration(uint256 epochDuration);
    error DistributorMaxRewardPoolTooLarge(uint256 maxRewardPool);
    error DistributorNotOracle(address caller);
    /// @notice `finalize` of an epoch that has not ended yet (`epoch` must be below `currentEpoch`).
    error DistributorEpochNotEnded(uint256 epoch, uint256 currentEpoch);
    error DistributorAlreadyFinalized(uint256 epoch);
    error DistributorRewardPoolTooLarge(uint256 rewardPool, uint256 maxRewardPool);
    /// @notice The figures of `finalize` do not fit together: a root, a total score and a company count are either
    /// all zero (an empty epoch, which also needs a zero pool) or all non-zero.
    error DistributorInvalidFinalization(uint256 epoch);
    error DistributorNotFinalized(uint256 epoch);
    error DistributorInvalidIndex(uint256 epoch, uint256 index, uint256 companyCount);
    error DistributorAlreadyClaimed(uint256 epoch, uint256 index);
    error DistributorInvalidProof(uint256 epoch, uint256 index);
    /// @notice Paying `amount` would take the epoch's claims over its pool (a tree whose scores sum above the total).
    error DistributorPoolExceeded(uint256 epoch, uint256 amount, uint256 remaining);

    event EpochFinalized(
        uint256 indexed epoch, bytes32 merkleRoot, uint256 totalScore, uint256 rewardPool, uint256 companyCount
    );
    event Claimed(
        uint256 indexed epoch, uint256 index, bytes32 indexed companyKey, address indexed claimTo, uint256 amount
    );
    event OracleSet(address indexed previousOracle, address indexed newOracle);
    event MaxRewardPoolSet(uint256 maxRewardPool);

    /// @notice The epoch running now: (block.timestamp - startTime) / epochDuration, epoch 0 first.
    function currentEpoch() external view returns (uint256);
    /// @notice First second of `epoch`.
    function epochStart(uint256 epoch) external view returns (uint256);
    /// @notice First second after `epoch` (the start of the next one); the epoch can be finalized from then on.
    function epochEnd(uint256 epoch) external view returns (uint256);
    function epochInfo(uint256 epoch) external view returns (EpochInfo memory);
    function isFinalized(uint256 epoch) external view returns (bool);
    function isClaimed(uint256 epoch, uint256 index) external view returns (bool);
    function startTime() external view returns (uint256);
    function epochDuration() external view returns (uint256);
    function oracle() external view returns (address);
    function maxRewardPool() external view returns (uint256);

    /// @notice Records an ended epoch's Merkle root, total score and pool; the oracle only, once per epoch.
    function finalize(uint256 epoch, bytes32 merkleRoot, uint256 totalScore, uint256 rewardPool, uint256 companyCount)
        external;
    /// @notice Pays leaf `index` of `epoch`: mints rewardPool * score / totalScore primary tokens to `claimTo`.
    /// Anyone may call it; the reward always goes to the leaf's `claimTo`.
    function claim(
        uint256 epoch,
        uint256 index,
        bytes32 companyKey,
        address claimTo,
        uint256 score,
        bytes32[] calldata proof
    ) external returns (uint256 amount);

    function setOracle(address newOracle) external;
    function setMaxRewardPool(uint256 newMaxRewardPool) external;
}
