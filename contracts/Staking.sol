// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IERC721Enumerable} from "@openzeppelin/contracts/token/ERC721/extensions/IERC721Enumerable.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {IAccessCard} from "./interfaces/IAccessCard.sol";
import {IStaking} from "./interfaces/IStaking.sol";

/// @notice What the staking contract needs from the emission token.
interface IEmissionMinter {
    function mint(address to, uint256 amount) external;
}

/// @title AI Economy staking
/// @notice MasterChef-style staking: pools by pid share `emissionPerSecond` by allocation points, and inside a pool
/// every staker earns in proportion to its effective stake. A card's multiplier (5/3/2, or 1 without a card) applies
/// up to its tier's cap of stake (`boostCap`), the rest counts at 1x: effective = amount + boosted * (multiplier - 1),
/// where boosted = min(amount, cap). So a card held by a vault that stakes everyone's tokens boosts at most its cap.
/// Rewards are minted in the emission token on harvest.
/// @dev Accounting: `accEmissionPerShare` is the emission per unit of effective stake, scaled by ACC_PRECISION
/// (1e18). Each user keeps `rewardDebt` in the same scaled unit (effective * acc, not divided), so a pending
/// amount is floor(effective * (acc - accAtLastChange) / 1e18) and the sum over all users never exceeds what
/// the pool accrued (which itself rounds down). Pending rewards are banked (`banked`) before every change of
/// stake or boost. While a pool's effective stake (or its allocation) is zero nothing accrues and
/// `lastRewardTime` just moves forward.
///
/// Cards: one card boosts one staker per pool at a time (`boostedBy[pid][cardId]`, and a bitmap of those pools per
/// card, `boostedPools[cardId]`), and only while that staker holds it. The access card calls `onCardTransfer` on
/// every transfer, so a boost ends in the block its card leaves (rewards banked at the old rate up to then, never
/// after): borrowing a card for one transaction to boost earns nothing. That rule needs the card wired to this
/// contract (`AccessCard.setStaking`): deployment wires it, and the platform refuses to start with a card that reports
/// its transfers to no staking contract. A transfer costs one read for a card that boosts nowhere, and one pool
/// update per pool it boosts (at most MAX_POOLS). Every deposit, withdraw and harvest also settles the boost (dropping
/// it if the card has left) and re-applies the tier's current cap; `poke` lets anyone do the same to any position,
/// and `refreshBoostFor` lets anyone drop a stale boost. A card boosts only a position with stake (`refreshBoost`
/// refuses a zero stake, and a withdrawal to zero ends the boost), so claiming pools costs the claimant a stake in
/// each, and a transfer still visits at most MAX_POOLS pools.
contract Staking is IStaking, Ownable2Step, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;
    using SafeCast for uint256;

    uint256 public constant ACC_PRECISION = 1e18;
    /// @notice `refreshBoost` looks at the caller's first MAX_CARDS_SCANNED cards only (index order of
    /// ERC721Enumerable), to bound its gas; a holder of more cards keeps the best one among the first 50.
    uint256 public constant MAX_CARDS_SCANNED = 50;
    /// @notice The most pools there can be: a card's boosted pools are one word's bits, and a card transfer updates
    /// at most this many pools.
    uint256 public constant MAX_POOLS = 32;

    struct Pool {
        IERC20 token;
        uint256 allocPoint;
        uint256 lastRewardTime;
        uint256 accEmissionPerShare;
        uint256 totalStaked;
        uint256 totalEffective;
    }

    /// @dev Three slots: the stake, its multiplier, card and boosted part in one (the effective stake is
    /// amount + boosted * (multiplier - 1), derived rather than stored), then the reward debt, then the banked emission.
    struct User {
        uint128 amount;
        /// @dev 0 until the first boost; read as 1.
        uint8 multiplier;
        uint32 cardId;
        /// @dev The part of `amount` the multiplier applies to: min(amount, the tier's cap) at the last settlement.
        uint88 boosted;
        /// @dev effective * accEmissionPerShare at the last settlement, NOT divided by ACC_PRECISION.
        uint256 rewardDebt;
        uint256 banked;
    }

    IEmissionMinter public immutable emissionToken;
    IAccessCard public immutable accessCard;

    uint256 public emissionPerSecond;
    uint256 public totalAllocPoint;
    /// @inheritdoc IStaking
    mapping(uint256 multiplier => uint256 cap) public boostCap;

    Pool[] private _pools;
    mapping(uint256 pid => mapping(address account => User)) private _users;
    mapping(address token => bool) private _hasPool;
    /// @inheritdoc IStaking
    mapping(uint256 pid => mapping(uint256 cardId => address account)) public boostedBy;
    /// @inheritdoc IStaking
    mapping(uint256 cardId => uint256 pids) public boostedPools;

    constructor(IEmissionMinter emissionToken_, IAccessCard accessCard_, address initialOwner, uint256 emissionPerSecond_)
        Ownable(initialOwner)
    {
        if (address(emissionToken_) == address(0)) revert StakingInvalidAddress(address(0));
        if (address(accessCard_) == address(0)) revert StakingInvalidAddress(address(0));
        emissionToken = emissionToken_;
        accessCard = accessCard_;
        emissionPerSecond = emissionPerSecond_;
        emit EmissionPerSecondSet(emissionPerSecond_);
        // Black, Gold and Silver (docs/api/staking.md; docs/economics.md "Staking boost: a pooled card").
        _setBoostCap(5, 1_000_000 ether);
        _setBoostCap(3, 250_000 ether);
        _setBoostCap(2, 100_000 ether);
    }

    modifier validPool(uint256 pid) {
        if (pid >= _pools.length) revert StakingInvalidPool(pid);
        _;
    }

    // ---------------------------------------------------------------- owner

    /// @inheritdoc IStaking
    /// @dev Updates every pool first (the share of each changes); at most MAX_POOLS pools.
    function addPool(IERC20 token, uint256 allocPoint) external onlyOwner returns (uint256 pid) {
        if (address(token) == address(0)) revert StakingInvalidAddress(address(0));
        if (_hasPool[address(token)]) revert StakingPoolExists(address(token));
        if (_pools.length >= MAX_POOLS) revert StakingTooManyPools(MAX_POOLS);
        _updateAllPools();
        pid = _pools.length;
        _pools.push(
            Pool({
                token: token,
                allocPoint: allocPoint,
                lastRewardTime: block.timestamp,
                accEmissionPerShare: 0,
                totalStaked: 0,
                totalEffective: 0
            })
        );
        _hasPool[address(token)] = true;
        totalAllocPoint += allocPoint;
        emit PoolAdded(pid, address(token), allocPoint);
    }

    /// @inheritdoc IStaking
    function setAllocPoint(uint256 pid, uint256 allocPoint) external onlyOwner validPool(pid) {
        _updateAllPools();
        totalAllocPoint = totalAllocPoint - _pools[pid].allocPoint + allocPoint;
        _pools[pid].allocPoint = allocPoint;
        emit AllocPointSet(pid, allocPoint);
    }

    /// @inheritdoc IStaking
    function setEmissionPerSecond(uint256 emissionPerSecond_) external onlyOwner {
        _updateAllPools();
        emissionPerSecond = emissionPerSecond_;
        emit EmissionPerSecondSet(emissionPerSecond_);
    }

    /// @inheritdoc IStaking
    /// @dev A position takes the new cap at its next settlement (deposit, withdraw, harvest, boost refresh), or when
    /// anyone calls `poke` on it.
    function setBoostCap(uint256 multiplier, uint256 cap) external onlyOwner {
        _setBoostCap(multiplier, cap);
    }

    function _setBoostCap(uint256 multiplier, uint256 cap) private {
        if (multiplier < 2 || multiplier > type(uint8).max || cap > type(uint88).max) {
            revert StakingInvalidBoostCap(multiplier, cap);
        }
        boostCap[multiplier] = cap;
        emit BoostCapSet(multiplier, cap);
    }

    // ---------------------------------------------------------------- stakers

    /// @inheritdoc IStaking
    function deposit(uint256 pid, uint256 amount) external nonReentrant validPool(pid) {
        _deposit(pid, amount);
    }

    /// @inheritdoc IStaking
    /// @dev The permit is tried and its failure ignored (someone may have used the signature first, which gave the
    /// same allowance): the transfer then needs the allowance, as `deposit` does. `deadline` is the deposit's own
    /// deadline too, as the launcher's trades have: after it the call reverts even with an allowance already given.
    function depositWithPermit(uint256 pid, uint256 amount, uint256 deadline, uint8 v, bytes32 r, bytes32 s)
        external
        nonReentrant
        validPool(pid)
    {
        if (block.timestamp > deadline) revert StakingDeadlinePassed(deadline, block.timestamp);
        try IERC20Permit(address(_pools[pid].token)).permit(msg.sender, address(this), amount, deadline, v, r, s) {}
            catch {}
        _deposit(pid, amount);
    }

    /// @inheritdoc IStaking
    function depositAndBoost(uint256 pid, uint256 amount) external nonReentrant validPool(pid) {
        _deposit(pid, amount);
        _refreshBoost(pid);
    }

    /// @inheritdoc IStaking
    /// @dev The permit as in `depositWithPermit`: tried, its failure ignored, the deadline the call's own.
    function depositWithPermitAndBoost(uint256 pid, uint256 amount, uint256 deadline, uint8 v, bytes32 r, bytes32 s)
        external
        nonReentrant
        validPool(pid)
    {
        if (block.timestamp > deadline) revert StakingDeadlinePassed(deadline, block.timestamp);
        try IERC20Permit(address(_pools[pid].token)).permit(msg.sender, address(this), amount, deadline, v, r, s) {}
            catch {}
        _deposit(pid, amount);
        _refreshBoost(pid);
    }

    function _deposit(uint256 pid, uint256 amount) private {
        if (amount == 0) revert StakingZeroAmount();
        Pool storage pool = _updatePool(pid);
        User storage user = _users[pid][msg.sender];
        _settleBoost(pool, pid, msg.sender);
        _bank(pool, user);
        // Credit what arrived, not what was asked, so a token taking a fee cannot inflate the stake.
        uint256 before = pool.token.balanceOf(address(this));
        pool.token.safeTransferFrom(msg.sender, address(this), amount);
        uint256 received = pool.token.balanceOf(address(this)) - before;
        pool.totalStaked += received;
        _setStake(pool, user, user.amount + received, _multiplierOf(user));
        emit Deposited(msg.sender, pid, received);
    }

    /// @inheritdoc IStaking
    function withdraw(uint256 pid, uint256 amount) external nonReentrant validPool(pid) {
        if (amount == 0) revert StakingZeroAmount();
        User storage user = _users[pid][msg.sender];
        if (amount > user.amount) revert StakingInsufficientStake(amount, user.amount);
        Pool storage pool = _updatePool(pid);
        _settleBoost(pool, pid, msg.sender);
        _bank(pool, user);
        pool.totalStaked -= amount;
        _setStake(pool, user, user.amount - amount, _multiplierOf(user));
        // No stake, no boost: the card's claim on this pool ends, so its transfers do not visit the pool.
        if (user.amount == 0 && user.cardId != 0) _dropBoost(pool, pid, msg.sender);
        pool.token.safeTransfer(msg.sender, amount);
        emit Withdrawn(msg.sender, pid, amount);
    }

    /// @inheritdoc IStaking
    function harvest(uint256 pid) external nonReentrant validPool(pid) {
        Pool storage pool = _updatePool(pid);
        User storage user = _users[pid][msg.sender];
        _settleBoost(pool, pid, msg.sender);
        _bank(pool, user);
        // Re-applies the tier's current cap: a lowered cap reaches a position that only harvests.
        _setStake(pool, user, user.amount, _multiplierOf(user));
        uint256 amount = user.banked;
        user.banked = 0;
        if (amount > 0) emissionToken.mint(msg.sender, amount);
        emit Harvested(msg.sender, pid, amount);
    }

    /// @inheritdoc IStaking
    /// @dev Settles like a harvest without paying: banks the account's emission at its old effective stake, drops a
    /// boost whose card has left, and re-applies the tier's current cap. Moves no tokens, so anyone may call it.
    function poke(uint256 pid, address account) external nonReentrant validPool(pid) {
        Pool storage pool = _updatePool(pid);
        User storage user = _users[pid][account];
        _settleBoost(pool, pid, account);
        _bank(pool, user);
        _setStake(pool, user, user.amount, _multiplierOf(user));
        emit Poked(account, pid, _effective(user));
    }

    /// @inheritdoc IStaking
    /// @dev Touches neither the accumulator nor the emission token nor the card, so nothing outside this contract
    /// can block it. The card claim is released so the card can boost someone else.
    function emergencyWithdraw(uint256 pid) external nonReentrant validPool(pid) {
        Pool storage pool = _pools[pid];
        User storage user = _users[pid][msg.sender];
        uint256 amount = user.amount;
        uint256 forfeited = user.banked + _accrued(user, pool.accEmissionPerShare);
        pool.totalStaked -= amount;
        pool.totalEffective -= _effective(user);
        uint256 cardId = user.cardId;
        if (cardId != 0 && boostedBy[pid][cardId] == msg.sender) _unmarkBoost(pid, cardId);
        delete _users[pid][msg.sender];
        pool.token.safeTransfer(msg.sender, amount);
        emit EmergencyWithdrawn(msg.sender, pid, amount, forfeited);
    }

    /// @inheritdoc IStaking
    /// @dev Scans the caller's first MAX_CARDS_SCANNED cards; `refreshBoost(pid, cardId)` names the card instead,
    /// for less gas. Ties between cards of the same multiplier keep the card already in use, else the first found.
    function refreshBoost(uint256 pid) external nonReentrant validPool(pid) {
        _refreshBoost(pid);
    }

    /// @dev `refreshBoost(pid)`'s scan and claim, for it and the deposits that boost.
    function _refreshBoost(uint256 pid) private {
        Pool storage pool = _updatePool(pid);
        User storage user = _users[pid][msg.sender];
        IERC721Enumerable cards = IERC721Enumerable(address(accessCard));
        uint256 count = cards.balanceOf(msg.sender);
        if (count > MAX_CARDS_SCANNED) count = MAX_CARDS_SCANNED;

        uint256 bestCard;
        uint256 bestMultiplier = 1;
        for (uint256 i = 0; i < count; ++i) {
            uint256 cardId = cards.tokenOfOwnerByIndex(msg.sender, i);
            (, uint256 multiplier) = accessCard.tierOf(cardId);
            if (multiplier > bestMultiplier || (multiplier == bestMultiplier && cardId == user.cardId)) {
                bestCard = cardId;
                bestMultiplier = multiplier;
            }
        }
        _claimCard(pool, pid, bestCard, bestMultiplier);
    }

    /// @inheritdoc IStaking
    function refreshBoost(uint256 pid, uint256 cardId) external nonReentrant validPool(pid) {
        if (!_holds(msg.sender, cardId)) revert StakingCardNotHeld(msg.sender, cardId);
        Pool storage pool = _updatePool(pid);
        (, uint256 multiplier) = accessCard.tierOf(cardId);
        _claimCard(pool, pid, multiplier > 1 ? cardId : 0, multiplier);
    }

    /// @inheritdoc IStaking
    /// @dev Only the access card calls it, after it moved `cardId`. Every pool's claim of the card by `from` ends now,
    /// with `from`'s rewards banked at the old rate up to this block. Only the pools the card boosts are visited: a
    /// card that boosts nowhere costs one read.
    function onCardTransfer(address from, address, uint256 cardId) external nonReentrant {
        if (msg.sender != address(accessCard)) revert StakingUnauthorizedCard(msg.sender);
        uint256 pids = boostedPools[cardId];
        while (pids != 0) {
            uint256 pid = _lowestBit(pids);
            pids &= pids - 1;
            if (boostedBy[pid][cardId] == from) _dropBoost(_updatePool(pid), pid, from);
        }
    }

    /// @inheritdoc IStaking
    function refreshBoostFor(address account, uint256 pid) external nonReentrant validPool(pid) {
        uint256 cardId = _users[pid][account].cardId;
        if (cardId != 0 && _holds(account, cardId)) revert StakingBoostStillHeld(account, cardId);
        Pool storage pool = _updatePool(pid);
        _dropBoost(pool, pid, account);
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc IStaking
    function pendingEmission(uint256 pid, address account) external view validPool(pid) returns (uint256) {
        Pool storage pool = _pools[pid];
        User storage user = _users[pid][account];
        uint256 acc = pool.accEmissionPerShare;
        if (block.timestamp > pool.lastRewardTime && pool.totalEffective > 0 && totalAllocPoint > 0) {
            acc += _poolReward(pool) * ACC_PRECISION / pool.totalEffective;
        }
        return user.banked + _accrued(user, acc);
    }

    /// @inheritdoc IStaking
    function poolLength() external view returns (uint256) {
        return _pools.length;
    }

    /// @inheritdoc IStaking
    function userInfo(uint256 pid, address account)
        external
        view
        validPool(pid)
        returns (uint256 amount, uint256 effective, uint256 multiplier, uint256 cardId)
    {
        User storage user = _users[pid][account];
        return (user.amount, _effective(user), _multiplierOf(user), user.cardId);
    }

    /// @inheritdoc IStaking
    function poolInfo(uint256 pid)
        external
        view
        validPool(pid)
        returns (
            IERC20 token,
            uint256 allocPoint,
            uint256 lastRewardTime,
            uint256 accEmissionPerShare,
            uint256 totalStaked,
            uint256 totalEffective
        )
    {
        Pool storage p = _pools[pid];
        return (p.token, p.allocPoint, p.lastRewardTime, p.accEmissionPerShare, p.totalStaked, p.totalEffective);
    }

    /// @inheritdoc IStaking
    function totalEffectiveStake(uint256 pid) external view validPool(pid) returns (uint256) {
        return _pools[pid].totalEffective;
    }

    // ---------------------------------------------------------------- internals

    function _updateAllPools() private {
        uint256 length = _pools.length;
        for (uint256 pid = 0; pid < length; ++pid) {
            _updatePool(pid);
        }
    }

    function _updatePool(uint256 pid) private returns (Pool storage pool) {
        pool = _pools[pid];
        if (block.timestamp <= pool.lastRewardTime) return pool;
        if (pool.totalEffective > 0 && totalAllocPoint > 0) {
            pool.accEmissionPerShare += _poolReward(pool) * ACC_PRECISION / pool.totalEffective;
        }
        pool.lastRewardTime = block.timestamp;
    }

    /// @dev The pool's share of the emission since its last update, rounded down.
    function _poolReward(Pool storage pool) private view returns (uint256) {
        return (block.timestamp - pool.lastRewardTime) * emissionPerSecond * pool.allocPoint / totalAllocPoint;
    }

    /// @dev The stake, with its boosted part counted `multiplier` times: what the user's share of the pool is
    /// measured in.
    function _effective(User storage user) private view returns (uint256) {
        return uint256(user.amount) + uint256(user.boosted) * (_multiplierOf(user) - 1);
    }

    function _accrued(User storage user, uint256 acc) private view returns (uint256) {
        return (_effective(user) * acc - user.rewardDebt) / ACC_PRECISION;
    }

    /// @dev Moves the user's accrued emission into `banked`; the pool must be updated first.
    function _bank(Pool storage pool, User storage user) private {
        user.banked += _accrued(user, pool.accEmissionPerShare);
        user.rewardDebt = _effective(user) * pool.accEmissionPerShare;
    }

    /// @dev Sets amount and multiplier, applies the multiplier's cap and re-derives the effective stake; rewards
    /// must be banked first.
    function _setStake(Pool storage pool, User storage user, uint256 amount, uint256 multiplier) private {
        uint256 boosted;
        if (multiplier > 1) {
            uint256 cap = boostCap[multiplier];
            boosted = amount < cap ? amount : cap;
        }
        uint256 effective = amount + boosted * (multiplier - 1);
        pool.totalEffective = pool.totalEffective - _effective(user) + effective;
        user.amount = amount.toUint128();
        user.multiplier = multiplier.toUint8();
        // Fits: boosted <= cap <= type(uint88).max.
        user.boosted = uint88(boosted);
        user.rewardDebt = effective * pool.accEmissionPerShare;
    }

    /// @dev The caller's boost becomes `cardId` (0: none) at `multiplier`; another claimant of the card, which no
    /// longer holds it since the caller does, is dropped first (banked at its old rate). The pool is updated.
    function _claimCard(Pool storage pool, uint256 pid, uint256 cardId, uint256 multiplier) private {
        if (cardId != 0) {
            if (_users[pid][msg.sender].amount == 0) revert StakingNoStake(pid);
            address previous = boostedBy[pid][cardId];
            if (previous != address(0) && previous != msg.sender) _dropBoost(pool, pid, previous);
        }
        _applyBoost(pool, pid, msg.sender, cardId, multiplier);
    }

    /// @dev Drops the account's boost when its card has left it (a transfer the card did not report, or one made
    /// before the card was wired to this contract). The pool is updated.
    function _settleBoost(Pool storage pool, uint256 pid, address account) private {
        uint256 cardId = _users[pid][account].cardId;
        if (cardId != 0 && !_holds(account, cardId)) _dropBoost(pool, pid, account);
    }

    /// @dev Banks at the old rate, moves the card claim, and applies the new multiplier. The pool is updated.
    function _applyBoost(Pool storage pool, uint256 pid, address account, uint256 cardId, uint256 multiplier)
        private
    {
        User storage user = _users[pid][account];
        _bank(pool, user);
        uint256 oldCard = user.cardId;
        if (oldCard != cardId) {
            if (oldCard != 0 && boostedBy[pid][oldCard] == account) _unmarkBoost(pid, oldCard);
            if (cardId != 0) {
                boostedBy[pid][cardId] = account;
                boostedPools[cardId] |= 1 << pid;
            }
            user.cardId = cardId.toUint32();
        }
        _setStake(pool, user, user.amount, multiplier);
        emit BoostRefreshed(account, pid, cardId, multiplier);
    }

    function _dropBoost(Pool storage pool, uint256 pid, address account) private {
        _applyBoost(pool, pid, account, 0, 1);
    }

    /// @dev The card boosts no one in `pid` any more.
    function _unmarkBoost(uint256 pid, uint256 cardId) private {
        delete boostedBy[pid][cardId];
        boostedPools[cardId] &= ~(1 << pid);
    }

    /// @dev The index of the lowest set bit of a non-zero word below 2^MAX_POOLS.
    function _lowestBit(uint256 word) private pure returns (uint256 index) {
        word &= ~word + 1;
        while (word > 1) {
            word >>= 1;
            ++index;
        }
    }

    function _multiplierOf(User storage user) private view returns (uint256) {
        return user.multiplier == 0 ? 1 : user.multiplier;
    }

    /// @dev Whether `account` holds `cardId`; a card that does not exist (ownerOf reverts) is held by no one.
    function _holds(address account, uint256 cardId) private view returns (bool) {
        try IERC721Enumerable(address(accessCard)).ownerOf(cardId) returns (address holder) {
            return holder == account;
        } catch {
            return false;
        }
    }
}
