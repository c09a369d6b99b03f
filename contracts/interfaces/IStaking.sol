// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IAccessCard} from "./IAccessCard.sol";

/// @notice The staking contract's interface: the functions docs/contracts.md fixes for clients, plus the views the HTTP
/// layer reads and the owner's pool management.
interface IStaking {
    error StakingInvalidPool(uint256 pid);
    error StakingZeroAmount();
    error StakingInsufficientStake(uint256 requested, uint256 staked);
    error StakingPoolExists(address token);
    error StakingInvalidAddress(address account);
    error StakingBoostStillHeld(address account, uint256 cardId);
    error StakingCardNotHeld(address account, uint256 cardId);
    error StakingUnauthorizedCard(address caller);
    error StakingInvalidBoostCap(uint256 multiplier, uint256 cap);
    error StakingTooManyPools(uint256 max);
    /// @notice A card boosts only a position with stake.
    error StakingNoStake(uint256 pid);
    error StakingDeadlinePassed(uint256 deadline, uint256 timestamp);

    event PoolAdded(uint256 indexed pid, address indexed token, uint256 allocPoint);
    event AllocPointSet(uint256 indexed pid, uint256 allocPoint);
    event EmissionPerSecondSet(uint256 emissionPerSecond);
    event BoostCapSet(uint256 indexed multiplier, uint256 cap);
    event Deposited(address indexed account, uint256 indexed pid, uint256 amount);
    event Withdrawn(address indexed account, uint256 indexed pid, uint256 amount);
    event Harvested(address indexed account, uint256 indexed pid, uint256 amount);
    event EmergencyWithdrawn(address indexed account, uint256 indexed pid, uint256 amount, uint256 forfeited);
    /// @notice Someone settled `account`'s position in `pid` (`poke`); `effective` is its stake under the current cap.
    event Poked(address indexed account, uint256 indexed pid, uint256 effective);
    /// @notice The account's boost in pool `pid` changed or was confirmed: card 0 means no card (multiplier 1).
    event BoostRefreshed(address indexed account, uint256 indexed pid, uint256 indexed cardId, uint256 multiplier);

    /// @notice Stakes `amount` of the pool's token (approve first). Banks the pending emission first.
    function deposit(uint256 pid, uint256 amount) external;
    /// @notice `deposit` in one transaction with the owner's EIP-2612 permit of `amount` to this contract, for a pool
    /// token that supports permit.
    function depositWithPermit(uint256 pid, uint256 amount, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external;
    /// @notice `deposit`, then `refreshBoost(pid)`: stakes `amount` and applies the best access card the caller holds
    /// as its boost, in one transaction (approve first).
    function depositAndBoost(uint256 pid, uint256 amount) external;
    /// @notice `depositWithPermit`, then `refreshBoost(pid)`: a boosted stake in one transaction with the owner's
    /// EIP-2612 permit of `amount` to this contract.
    function depositWithPermitAndBoost(uint256 pid, uint256 amount, uint256 deadline, uint8 v, bytes32 r, bytes32 s)
        external;
    /// @notice Unstakes `amount`. Banks the pending emission first; `harvest` pays it.
    function withdraw(uint256 pid, uint256 amount) external;
    /// @notice Mints the caller's pending emission (banked plus accrued) to the caller.
    function harvest(uint256 pid) external;
    /// @notice Returns the whole stake and forfeits every pending reward; needs no emission or card call.
    function emergencyWithdraw(uint256 pid) external;
    /// @notice Applies the best access card the caller holds (highest multiplier) as the caller's boost in `pid`.
    function refreshBoost(uint256 pid) external;
    /// @notice Applies the given card, which the caller must hold, as the caller's boost in `pid` (no scan).
    function refreshBoost(uint256 pid, uint256 cardId) external;
    /// @notice Drops `account`'s boost in `pid` to 1x when its card is no longer held by it; anyone may call.
    function refreshBoostFor(address account, uint256 pid) external;
    /// @notice Settles `account`'s position in `pid` without paying it: banks its emission, drops a boost whose card
    /// has left, and re-applies its tier's current cap (`setBoostCap`). Anyone may call.
    function poke(uint256 pid, address account) external;
    /// @notice Called by the access card after every transfer of `cardId`: `from`'s boosts with it end now.
    function onCardTransfer(address from, address to, uint256 cardId) external;
    /// @notice Emission `account` would receive from `harvest(pid)` now.
    function pendingEmission(uint256 pid, address account) external view returns (uint256);
    function poolLength() external view returns (uint256);

    function addPool(IERC20 token, uint256 allocPoint) external returns (uint256 pid);
    function setAllocPoint(uint256 pid, uint256 allocPoint) external;
    function setEmissionPerSecond(uint256 emissionPerSecond) external;
    /// @notice Sets how much of a stake a card of `multiplier` (5 Black, 3 Gold, 2 Silver) boosts; the rest counts
    /// at 1x. At most 2^88 - 1 wei.
    function setBoostCap(uint256 multiplier, uint256 cap) external;
    /// @notice The stake a card of `multiplier` boosts at most (wei).
    function boostCap(uint256 multiplier) external view returns (uint256);

    function userInfo(uint256 pid, address account)
        external
        view
        returns (uint256 amount, uint256 effective, uint256 multiplier, uint256 cardId);
    function poolInfo(uint256 pid)
        external
        view
        returns (
            IERC20 token,
            uint256 allocPoint,
            uint256 lastRewardTime,
            uint256 accEmissionPerShare,
            uint256 totalStaked,
            uint256 totalEffective
        );
    function totalEffectiveStake(uint256 pid) external view returns (uint256);
    function totalAllocPoint() external view returns (uint256);
    function emissionPerSecond() external view returns (uint256);
    function boostedBy(uint256 pid, uint256 cardId) external view returns (address);
    /// @notice The pools `cardId` boosts someone in, as bits (bit `pid`).
    function boostedPools(uint256 cardId) external view returns (uint256);
    /// @notice The access card whose transfers end boosts here.
    function accessCard() external view returns (IAccessCard);
}
