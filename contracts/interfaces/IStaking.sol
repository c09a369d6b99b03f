// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

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

    event PoolAdded(uint256 indexed pid, address indexed token, uint256 allocPoint);
    event AllocPointSet(uint256 indexed pid, uint256 allocPoint);
    event EmissionPerSecondSet(uint256 emissionPerSecond);
    event Deposited(address indexed account, uint256 indexed pid, uint256 amount);
    event Withdrawn(address indexed account, uint256 indexed pid, uint256 amount);
    event Harvested(address indexed account, uint256 indexed pid, uint256 amount);
    event EmergencyWithdrawn(address indexed account, uint256 indexed pid, uint256 amount, uint256 forfeited);
    /// @notice The account's boost in pool `pid` changed or was confirmed: card 0 means no card (multiplier 1).
    event BoostRefreshed(address indexed account, uint256 indexed pid, uint256 indexed cardId, uint256 multiplier);

    /// @notice Stakes `amount` of the pool's token (approve first). Banks the pending emission first.
    function deposit(uint256 pid, uint256 amount) external;
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
    /// @notice Called by the access card after every transfer of `cardId`: `from`'s boosts with it end now.
    function onCardTransfer(address from, address to, uint256 cardId) external;
    /// @notice Emission `account` would receive from `harvest(pid)` now.
    function pendingEmission(uint256 pid, address account) external view returns (uint256);
    function poolLength() external view returns (uint256);

    function addPool(IERC20 token, uint256 allocPoint) external returns (uint256 pid);
    function setAllocPoint(uint256 pid, uint256 allocPoint) external;
    function setEmissionPerSecond(uint256 emissionPerSecond) external;

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
}
