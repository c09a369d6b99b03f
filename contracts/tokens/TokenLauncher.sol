// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IUnlockCallback} from "@uniswap/v4-core/src/interfaces/callback/IUnlockCallback.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {StateLibrary} from "@uniswap/v4-core/src/libraries/StateLibrary.sol";
import {Hooks} from "@uniswap/v4-core/src/libraries/Hooks.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {SqrtPriceMath} from "@uniswap/v4-core/src/libraries/SqrtPriceMath.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId} from "@uniswap/v4-core/src/types/PoolId.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {ModifyLiquidityParams, SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {ITokenLauncher} from "../interfaces/ITokenLauncher.sol";
import {BondingCurve} from "./BondingCurve.sol";
import {CompanyToken} from "./CompanyToken.sol";
import {CompanyTokenDeployer} from "./CompanyTokenDeployer.sol";

/// @title AI Economy token launcher
/// @notice Launches each company's token (fixed supply of 1,000,000, 18 decimals, all held here) and sells it on a
/// constant-product curve with virtual reserves, quoted in USDC (6 decimals), pump.fun style. The curve is shaped by
/// the token's graduation threshold G (USDC): it opens at a market cap of G/4 with virtual reserves
/// (G/3 USDC, 4/3 of the supply), and the buy that lifts the market cap to G graduates the token in the same
/// transaction: the launcher creates the token/USDC Uniswap v4 pool at the curve's final price, adds the raised
/// USDC (about G/3) and the tokens it still holds (about a third of the supply) as full-range liquidity that
/// nobody can ever withdraw, burns the tokens the pool could not take and adds leftover USDC dust to the accrued
/// fees. The graduating buy takes only what the curve needs; the rest of its USDC buys from the new pool.
/// @dev The curve's arithmetic is the BondingCurve library's, whose rounding always favours the curve: the reserve
/// left after a trade is rounded up (ceilDiv of k), so no amount buys tokens for free and a sale never pays more than
/// the curve holds. Every curve trade pays a fee
/// (`curveFeeBps`, 1% by default, at most 2%, set by the owner) in USDC, on top of a buy's curve amount and out of a
/// sale's proceeds, so a round trip always loses it: wash trading is not free and a sandwich must beat two fees.
/// The fees accrue here and the fee recipient withdraws them (a recipient that cannot receive never blocks a trade).
/// After graduation the platform's fee is the 2.5% the pool hook charges.
/// @notice What the launcher asks of a fee hook before it accepts it.
interface IFeeHookWiring {
    function launcher() external view returns (address);
    function poolManager() external view returns (IPoolManager);
    function usdc() external view returns (address);
}

contract TokenLauncher is ITokenLauncher, IUnlockCallback, Ownable2Step, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;
    using SafeCast for uint256;
    using StateLibrary for IPoolManager;

    uint256 public constant TOTAL_SUPPLY = 1_000_000e18;
    /// @notice Smallest graduation threshold (USDC, 6 decimals), so the curve's reserves stay far from rounding.
    uint256 public constant MIN_GRADUATION_THRESHOLD = 100e6;
    /// @notice Largest graduation threshold (USDC, 6 decimals): 1 billion USDC, the platform's own bound, which keeps
    /// every reserve of a token's state within the packed fields below.
    uint256 public constant MAX_GRADUATION_THRESHOLD = 1e15;
    uint24 public constant POOL_FEE = 0;
    int24 public constant TICK_SPACING = 60;
    int24 public constant MIN_TICK = (TickMath.MIN_TICK / TICK_SPACING) * TICK_SPACING;
    int24 public constant MAX_TICK = (TickMath.MAX_TICK / TICK_SPACING) * TICK_SPACING;
    uint256 private constant Q96 = 1 << 96;
    uint256 private constant MAX_NAME_BYTES = 64;
    uint256 private constant MAX_SYMBOL_BYTES = 16;
    /// @notice The curve fee's hard cap: 2%.
    uint16 public constant MAX_CURVE_FEE_BPS = 200;
    uint16 public constant DEFAULT_CURVE_FEE_BPS = 100;
    /// @notice The permission bits a fee hook's address carries, and no other: beforeInitialize,
    /// beforeAddLiquidity, beforeRemoveLiquidity, afterSwap, afterSwapReturnDelta (PlatformFeeHook's permissions).
    uint160 public constant FEE_HOOK_FLAGS = Hooks.BEFORE_INITIALIZE_FLAG | Hooks.BEFORE_ADD_LIQUIDITY_FLAG
        | Hooks.BEFORE_REMOVE_LIQUIDITY_FLAG | Hooks.AFTER_SWAP_FLAG | Hooks.AFTER_SWAP_RETURNS_DELTA_FLAG;

    uint256 private constant INITIAL_VIRTUAL_TOKENS = TOTAL_SUPPLY * 4 / 3;

    /// @dev A token's curve in one storage slot, the only slot a curve trade reads and writes (three slots of six
    /// before). With the threshold at most 1e15 the USDC reserves stay below 2^50 (uint56) and the token reserve
    /// below 2^81 (uint88). The rest is derived: k = initialVirtualUsdc * INITIAL_VIRTUAL_TOKENS (launch sets
    /// k = v0 * t0 and never changes it), the USDC the curve holds is virtualUsdc - initialVirtualUsdc (every buy
    /// and sale moves both by the same amount), and the token has graduated exactly when virtualUsdc reached
    /// graduationVirtualUsdc (a buy takes at most what the curve needs, the graduating buy exactly that, and the
    /// curve is frozen afterwards). The pool id is poolKeyOf(token).toId(): the fee hook cannot change once a token
    /// has graduated.
    struct Curve {
        uint56 virtualUsdc;
        uint88 virtualTokens;
        uint56 graduationVirtualUsdc;
        uint56 initialVirtualUsdc;
    }

    /// @dev What no trade reads, in its own slots: written at launch, read by views only.
    struct TokenInfo {
        bytes32 companyKey;
        uint128 graduationThreshold;
    }

    /// @notice A token's curve as `curveOf` reports it (its layout in storage before the curve was packed in one slot).
    struct TokenState {
        bytes32 companyKey;
        uint256 k;
        uint128 virtualUsdc;
        /// @dev USDC the curve holds for this token (virtualUsdc minus the initial virtual reserve).
        uint128 realUsdc;
        uint128 virtualTokens;
        /// @dev virtualUsdc at which the market cap first reaches the threshold.
        uint120 graduationVirtualUsdc;
        bool graduated;
        uint128 graduationThreshold;
        bytes32 poolId;
    }

    IERC20 public immutable usdc;
    IPoolManager public immutable poolManager;
    /// @notice Creates the company tokens (CREATE from this launcher at nonce 1, made by the constructor): their
    /// creation code lives there, not here, so this contract stays under EIP-170's size limit.
    CompanyTokenDeployer public immutable tokenDeployer;
    IHooks public feeHook;
    /// @notice The curve trading fee in basis points (packed with feeHook).
    uint16 public curveFeeBps = DEFAULT_CURVE_FEE_BPS;
    /// @notice Curve fees (USDC) not yet withdrawn by the fee recipient (packed with feeHook and curveFeeBps, which
    /// every curve trade reads anyway).
    uint72 public curveFeesAccrued;
    /// @notice True once a token graduated: its pool names the fee hook, which can no longer change (packed with
    /// feeHook, curveFeeBps and curveFeesAccrued).
    bool public feeHookLocked;
    address public platform;
    address public feeRecipient;

    mapping(address token => Curve) private _curves;
    mapping(address token => TokenInfo) private _infos;
    mapping(bytes32 companyKey => address token) public tokenOfCompany;

    enum Action {
        AddLiquidity,
        Swap
    }

    modifier onlyPlatform() {
        if (msg.sender != platform) revert LauncherUnauthorized(msg.sender);
        _;
    }

    modifier beforeDeadline(uint256 deadline) {
        if (block.timestamp > deadline) revert LauncherDeadlinePassed(deadline, block.timestamp);
        _;
    }

    constructor(IERC20 usdc_, IPoolManager poolManager_, address owner_, address platform_, address feeRecipient_)
        Ownable(owner_)
    {
        if (address(usdc_) == address(0)) revert LauncherInvalidAddress(address(0));
        if (address(poolManager_) == address(0)) revert LauncherInvalidAddress(address(0));
        if (platform_ == address(0) || feeRecipient_ == address(0)) revert LauncherInvalidAddress(address(0));
        usdc = usdc_;
        poolManager = poolManager_;
        platform = platform_;
        feeRecipient = feeRecipient_;
        tokenDeployer = new CompanyTokenDeployer();
        emit PlatformSet(address(0), platform_);
        emit FeeRecipientSet(address(0), feeRecipient_);
    }

    // ---------------------------------------------------------------- administration

    /// @notice Sets the pool hook: its address is fixed by CREATE2 and carries its permission bits. The owner may
    /// replace it until the first token graduates (no pool names it before), never after.
    /// @dev A wrong hook would block every graduation, so it must carry exactly the fee hook's flag bits, be a
    /// contract, and name this launcher, this launcher's pool manager and this launcher's USDC.
    function setFeeHook(IHooks hook) external onlyOwner {
        if (feeHookLocked) revert LauncherFeeHookLocked();
        if (address(hook) == address(0)) revert LauncherInvalidAddress(address(0));
        uint160 flags = uint160(address(hook)) & Hooks.ALL_HOOK_MASK;
        if (flags != FEE_HOOK_FLAGS) revert LauncherFeeHookWrongFlags(address(hook), flags, FEE_HOOK_FLAGS);
        if (address(hook).code.length == 0) revert LauncherFeeHookNotAHook(address(hook));
        IFeeHookWiring wiring = IFeeHookWiring(address(hook));
        address hookLauncher;
        address hookManager;
        try wiring.launcher() returns (address l) {
            hookLauncher = l;
        } catch {
            revert LauncherFeeHookNotAHook(address(hook));
        }
        try wiring.poolManager() returns (IPoolManager m) {
            hookManager = address(m);
        } catch {
            revert LauncherFeeHookNotAHook(address(hook));
        }
        if (hookLauncher != address(this)) revert LauncherFeeHookWrongLauncher(address(hook), hookLauncher);
        if (hookManager != address(poolManager)) revert LauncherFeeHookWrongPoolManager(address(hook), hookManager);
        address hookUsdc;
        try wiring.usdc() returns (address u) {
            hookUsdc = u;
        } catch {
            revert LauncherFeeHookNotAHook(address(hook));
        }
        if (hookUsdc != address(usdc)) revert LauncherFeeHookWrongUsdc(address(hook), hookUsdc);
        feeHook = hook;
        emit FeeHookSet(address(hook));
    }

    function setPlatform(address platform_) external onlyOwner {
        if (platform_ == address(0)) revert LauncherInvalidAddress(address(0));
        emit PlatformSet(platform, platform_);
        platform = platform_;
    }

    function setFeeRecipient(address recipient) external onlyOwner {
        if (recipient == address(0)) revert LauncherInvalidAddress(address(0));
        emit FeeRecipientSet(feeRecipient, recipient);
        feeRecipient = recipient;
    }

    /// @notice Sets the curve trading fee, at most MAX_CURVE_FEE_BPS (2%).
    function setCurveFee(uint16 bps) external onlyOwner {
        if (bps > MAX_CURVE_FEE_BPS) revert LauncherFeeTooHigh(bps, MAX_CURVE_FEE_BPS);
        emit CurveFeeSet(curveFeeBps, bps);
        curveFeeBps = bps;
    }

    /// @notice Sends the accrued curve fees to `to`. Fee recipient only.
    function withdrawCurveFees(address to) external nonReentrant returns (uint256 amount) {
        if (msg.sender != feeRecipient) revert LauncherUnauthorized(msg.sender);
        if (to == address(0)) revert LauncherInvalidAddress(address(0));
        amount = curveFeesAccrued;
        curveFeesAccrued = 0;
        usdc.safeTransfer(to, amount);
        emit CurveFeesWithdrawn(to, amount);
    }

    // ---------------------------------------------------------------- launch

    /// @notice Creates the company's token (through `tokenDeployer`, at its CREATE2 address fixed by `companyKey`, name
    /// and symbol) and opens its curve. One token per company key, ever. Platform only.
    function launch(
        bytes32 companyKey,
        string calldata name,
        string calldata symbol,
        address creator,
        uint256 graduationThreshold
    ) external onlyPlatform returns (address token) {
        if (address(feeHook) == address(0)) revert LauncherFeeHookNotSet();
        if (tokenOfCompany[companyKey] != address(0)) revert LauncherAlreadyLaunched(companyKey);
        if (bytes(name).length == 0 || bytes(name).length > MAX_NAME_BYTES) revert LauncherInvalidName();
        if (bytes(symbol).length == 0 || bytes(symbol).length > MAX_SYMBOL_BYTES) revert LauncherInvalidSymbol();
        if (graduationThreshold < MIN_GRADUATION_THRESHOLD) {
            revert LauncherThresholdTooLow(graduationThreshold, MIN_GRADUATION_THRESHOLD);
        }
        if (graduationThreshold > MAX_GRADUATION_THRESHOLD) {
            revert LauncherThresholdTooHigh(graduationThreshold, MAX_GRADUATION_THRESHOLD);
        }
        token = tokenDeployer.deploy(companyKey, name, symbol, TOTAL_SUPPLY);
        tokenOfCompany[companyKey] = token;

        uint256 v0 = graduationThreshold / 3;
        uint256 graduationVirtualUsdc =
            BondingCurve.graduationVirtualUsdc(v0 * INITIAL_VIRTUAL_TOKENS, graduationThreshold, TOTAL_SUPPLY);
        if (graduationVirtualUsdc == 0) revert LauncherThresholdTooLow(graduationThreshold, MIN_GRADUATION_THRESHOLD);
        _curves[token] = Curve({
            virtualUsdc: v0.toUint56(),
            virtualTokens: uint88(INITIAL_VIRTUAL_TOKENS),
            graduationVirtualUsdc: graduationVirtualUsdc.toUint56(),
            initialVirtualUsdc: v0.toUint56()
        });
        _infos[token] = TokenInfo({companyKey: companyKey, graduationThreshold: uint128(graduationThreshold)});
        emit TokenLaunched(companyKey, token, creator, name, symbol, graduationThreshold, graduationVirtualUsdc - v0);
    }

    // ---------------------------------------------------------------- trading

    /// @inheritdoc ITokenLauncher
    function buy(address token, uint256 usdcIn, uint256 minTokensOut, uint256 deadline)
        external
        nonReentrant
        beforeDeadline(deadline)
        returns (uint256)
    {
        return _buy(token, usdcIn, minTokensOut);
    }

    /// @notice `buy` in one transaction: `v`, `r`, `s` are the buyer's EIP-2612 permit for this launcher to take
    /// `usdcIn` USDC until `deadline` (the trade's own deadline). A permit already used (front-run by someone who
    /// submitted it first) is fine as long as the allowance it set is still there.
    function buyWithPermit(
        address token,
        uint256 usdcIn,
        uint256 minTokensOut,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external nonReentrant beforeDeadline(deadline) returns (uint256) {
        _permit(address(usdc), usdcIn, deadline, v, r, s);
        return _buy(token, usdcIn, minTokensOut);
    }

    /// @notice `sell` in one transaction, with the seller's EIP-2612 permit for `tokensIn` of the company token.
    function sellWithPermit(
        address token,
        uint256 tokensIn,
        uint256 minUsdcOut,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external nonReentrant beforeDeadline(deadline) returns (uint256) {
        _known(token);
        _permit(token, tokensIn, deadline, v, r, s);
        return _sell(token, tokensIn, minUsdcOut);
    }

    /// @dev Applies the caller's permit; when it fails (a permit front-run and used already, or a token without
    /// permit) the trade still goes ahead if the allowance covers it, and reverts with LauncherPermitFailed if not.
    function _permit(address asset, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) private {
        try IERC20Permit(asset).permit(msg.sender, address(this), value, deadline, v, r, s) {}
        catch {
            if (IERC20(asset).allowance(msg.sender, address(this)) < value) revert LauncherPermitFailed(asset);
        }
    }

    function _buy(address token, uint256 usdcIn, uint256 minTokensOut) private returns (uint256 tokensOut) {
        Curve memory c = _known(token);
        if (usdcIn == 0) revert LauncherZeroAmount();
        usdc.safeTransferFrom(msg.sender, address(this), usdcIn);
        uint256 remaining = usdcIn;
        if (c.virtualUsdc != c.graduationVirtualUsdc) {
            (uint256 curveIn, uint256 fee) =
                BondingCurve.buySplit(remaining, c.graduationVirtualUsdc - c.virtualUsdc, curveFeeBps);
            uint256 newVirtualUsdc;
            uint256 newVirtualTokens;
            (newVirtualUsdc, newVirtualTokens, tokensOut) = BondingCurve.buy(_k(c), c.virtualUsdc, c.virtualTokens, curveIn);
            if (tokensOut == 0) revert LauncherZeroOutput();
            c.virtualUsdc = newVirtualUsdc.toUint56();
            c.virtualTokens = uint88(newVirtualTokens);
            _curves[token] = c;
            curveFeesAccrued += fee.toUint72();
            remaining -= curveIn + fee;
            IERC20(token).safeTransfer(msg.sender, tokensOut);
            emit CurveTrade(token, msg.sender, true, curveIn + fee, tokensOut, newVirtualUsdc, newVirtualTokens, fee);
            if (newVirtualUsdc == c.graduationVirtualUsdc) _graduate(token, c);
        }
        if (remaining > 0) tokensOut += _swap(token, true, remaining, msg.sender);
        if (tokensOut < minTokensOut) revert LauncherSlippage(tokensOut, minTokensOut);
    }

    /// @inheritdoc ITokenLauncher
    function sell(address token, uint256 tokensIn, uint256 minUsdcOut, uint256 deadline)
        external
        nonReentrant
        beforeDeadline(deadline)
        returns (uint256)
    {
        return _sell(token, tokensIn, minUsdcOut);
    }

    function _sell(address token, uint256 tokensIn, uint256 minUsdcOut) private returns (uint256 usdcOut) {
        Curve memory c = _known(token);
        if (tokensIn == 0) revert LauncherZeroAmount();
        IERC20(token).safeTransferFrom(msg.sender, address(this), tokensIn);
        if (c.virtualUsdc == c.graduationVirtualUsdc) {
            usdcOut = _swap(token, false, tokensIn, msg.sender);
        } else {
            (uint256 newVirtualUsdc, uint256 newVirtualTokens, uint256 gross) =
                BondingCurve.sell(_k(c), c.virtualUsdc, c.virtualTokens, tokensIn);
            uint256 real = c.virtualUsdc - c.initialVirtualUsdc;
            if (gross > real) revert LauncherInsufficientReserve(gross, real);
            uint256 fee = BondingCurve.feeOn(gross, curveFeeBps);
            if (gross <= fee) revert LauncherZeroOutput();
            usdcOut = gross - fee;
            // newVirtualUsdc >= initialVirtualUsdc (gross <= real), and the token reserve grows back at most to t0.
            c.virtualUsdc = uint56(newVirtualUsdc);
            c.virtualTokens = newVirtualTokens.toUint88();
            _curves[token] = c;
            curveFeesAccrued += fee.toUint72();
            usdc.safeTransfer(msg.sender, usdcOut);
            emit CurveTrade(token, msg.sender, false, usdcOut, tokensIn, newVirtualUsdc, newVirtualTokens, fee);
        }
        if (usdcOut < minUsdcOut) revert LauncherSlippage(usdcOut, minUsdcOut);
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc ITokenLauncher
    function quoteBuy(address token, uint256 usdcIn) external view returns (uint256 tokensOut) {
        Curve memory s = _known(token);
        uint256 remaining = usdcIn;
        if (s.virtualUsdc != s.graduationVirtualUsdc) {
            (uint256 curveIn, uint256 fee) =
                BondingCurve.buySplit(remaining, s.graduationVirtualUsdc - s.virtualUsdc, curveFeeBps);
            (,, tokensOut) = BondingCurve.buy(_k(s), s.virtualUsdc, s.virtualTokens, curveIn);
            remaining -= curveIn + fee;
            if (remaining == 0) return tokensOut;
            // The rest would buy from the pool the graduation creates: at the curve's final price, with the
            // curve's USDC and the launcher's remaining tokens (before burning dust) as liquidity.
            uint256 vT = BondingCurve.tokenReserveAt(_k(s), s.graduationVirtualUsdc);
            uint256 sqrtPrice = _sqrtPriceX96(token, s.graduationVirtualUsdc, vT);
            uint256 tokensLeft = IERC20(token).balanceOf(address(this)) - tokensOut;
            uint256 usdcLeft = s.virtualUsdc - s.initialVirtualUsdc + curveIn;
            (uint256 amount0, uint256 amount1) =
                _isToken0(token) ? (tokensLeft, usdcLeft) : (usdcLeft, tokensLeft);
            uint128 liquidity = _liquidityFor(uint160(sqrtPrice), amount0, amount1);
            return tokensOut + _quotePool(token, uint160(sqrtPrice), liquidity, true, remaining);
        }
        (uint160 sqrtPriceX96, uint128 liq) = _poolState(token);
        return _quotePool(token, sqrtPriceX96, liq, true, remaining);
    }

    /// @inheritdoc ITokenLauncher
    function quoteSell(address token, uint256 tokensIn) external view returns (uint256 usdcOut) {
        Curve memory s = _known(token);
        if (s.virtualUsdc == s.graduationVirtualUsdc) {
            (uint160 sqrtPriceX96, uint128 liq) = _poolState(token);
            return _quotePool(token, sqrtPriceX96, liq, false, tokensIn);
        }
        (,, uint256 gross) = BondingCurve.sell(_k(s), s.virtualUsdc, s.virtualTokens, tokensIn);
        uint256 real = s.virtualUsdc - s.initialVirtualUsdc;
        if (gross > real) gross = real;
        uint256 fee = BondingCurve.feeOn(gross, curveFeeBps);
        usdcOut = gross > fee ? gross - fee : 0;
    }

    /// @inheritdoc ITokenLauncher
    function priceOf(address token) external view returns (uint256 price, uint256 marketCap) {
        Curve memory s = _known(token);
        uint256 supply = IERC20(token).totalSupply();
        if (s.virtualUsdc != s.graduationVirtualUsdc) {
            return (
                BondingCurve.price(s.virtualUsdc, s.virtualTokens),
                BondingCurve.marketCap(s.virtualUsdc, s.virtualTokens, supply)
            );
        }
        (uint160 sqrtPriceX96,) = _poolState(token);
        // priceX128 = sqrtPrice^2 / 2^64 = (currency1 per currency0) * 2^128, in raw units.
        uint256 priceX128 = Math.mulDiv(sqrtPriceX96, sqrtPriceX96, 1 << 64);
        if (_isToken0(token)) {
            price = Math.mulDiv(priceX128, 1e18, 1 << 128);
            marketCap = Math.mulDiv(priceX128, supply, 1 << 128);
        } else {
            price = Math.mulDiv(1 << 128, 1e18, priceX128);
            marketCap = Math.mulDiv(1 << 128, supply, priceX128);
        }
    }

    /// @inheritdoc ITokenLauncher
    function graduated(address token) external view returns (bool) {
        Curve memory c = _known(token);
        return c.virtualUsdc == c.graduationVirtualUsdc;
    }

    /// @notice The curve of `token` in one call: its reserves, the USDC raised and the graduation target.
    function curveOf(address token) external view returns (TokenState memory state) {
        Curve memory c = _known(token);
        TokenInfo storage info = _infos[token];
        state.companyKey = info.companyKey;
        state.k = _k(c);
        state.virtualUsdc = c.virtualUsdc;
        state.virtualTokens = c.virtualTokens;
        state.graduationVirtualUsdc = c.graduationVirtualUsdc;
        state.graduationThreshold = info.graduationThreshold;
        if (c.virtualUsdc == c.graduationVirtualUsdc) {
            state.graduated = true;
            state.poolId = PoolId.unwrap(poolKeyOf(token).toId());
        } else {
            state.realUsdc = c.virtualUsdc - c.initialVirtualUsdc;
        }
    }

    /// @notice The v4 pool key of a token (its pool exists once graduated).
    function poolKeyOf(address token) public view returns (PoolKey memory key) {
        _known(token);
        (Currency c0, Currency c1) = _isToken0(token)
            ? (Currency.wrap(token), Currency.wrap(address(usdc)))
            : (Currency.wrap(address(usdc)), Currency.wrap(token));
        key = PoolKey({currency0: c0, currency1: c1, fee: POOL_FEE, tickSpacing: TICK_SPACING, hooks: feeHook});
    }

    // ---------------------------------------------------------------- graduation

    /// @dev `s` is the curve as the graduating buy left it (virtualUsdc = graduationVirtualUsdc: graduated).
    function _graduate(address token, Curve memory s) private {
        feeHookLocked = true;
        uint256 raised = s.virtualUsdc - s.initialVirtualUsdc;
        PoolKey memory key = poolKeyOf(token);
        bytes32 poolId = PoolId.unwrap(key.toId());
        uint160 sqrtPriceX96 = _sqrtPriceX96(token, s.virtualUsdc, s.virtualTokens);
        poolManager.initialize(key, sqrtPriceX96);

        uint256 tokensHeld = IERC20(token).balanceOf(address(this));
        (uint128 liquidity, uint256 tokensToPool, uint256 usdcToPool) =
            _addLiquidity(token, key, sqrtPriceX96, tokensHeld, raised);
        // Whatever the pool could not take at its price: tokens are burned, USDC dust joins the accrued fees (no
        // transfer, so a fee recipient that cannot receive USDC never blocks a graduation).
        if (tokensHeld > tokensToPool) CompanyToken(token).burn(tokensHeld - tokensToPool);
        curveFeesAccrued += (raised - usdcToPool).toUint72();
        emit Graduated(
            token,
            poolId,
            sqrtPriceX96,
            liquidity,
            usdcToPool,
            tokensToPool,
            raised - usdcToPool,
            tokensHeld - tokensToPool
        );
    }

    /// @dev Adds the largest full-range position `tokens` and `usdcAmount` afford; returns what the pool took.
    function _addLiquidity(address token, PoolKey memory key, uint160 sqrtPriceX96, uint256 tokens, uint256 usdcAmount)
        private
        returns (uint128 liquidity, uint256 tokensToPool, uint256 usdcToPool)
    {
        bool tokenIs0 = _isToken0(token);
        liquidity = tokenIs0
            ? _liquidityFor(sqrtPriceX96, tokens, usdcAmount)
            : _liquidityFor(sqrtPriceX96, usdcAmount, tokens);
        BalanceDelta delta = abi.decode(
            poolManager.unlock(abi.encode(Action.AddLiquidity, abi.encode(key, liquidity))), (BalanceDelta)
        );
        uint256 paid0 = uint256(uint128(-delta.amount0()));
        uint256 paid1 = uint256(uint128(-delta.amount1()));
        (tokensToPool, usdcToPool) = tokenIs0 ? (paid0, paid1) : (paid1, paid0);
    }

    /// @dev sqrt(price) * 2^96 where price is currency1 per currency0 in raw units, from the curve's reserves.
    function _sqrtPriceX96(address token, uint256 virtualUsdc, uint256 virtualTokens) private view returns (uint160) {
        uint256 ratioX192 = _isToken0(token)
            ? Math.mulDiv(virtualUsdc, 1 << 192, virtualTokens)
            : Math.mulDiv(virtualTokens, 1 << 192, virtualUsdc);
        return uint160(Math.sqrt(ratioX192));
    }

    /// @dev Full-range liquidity the two amounts afford at the price (the smaller of the two sides).
    function _liquidityFor(uint160 sqrtPriceX96, uint256 amount0, uint256 amount1) private pure returns (uint128) {
        uint256 sqrtLower = TickMath.getSqrtPriceAtTick(MIN_TICK);
        uint256 sqrtUpper = TickMath.getSqrtPriceAtTick(MAX_TICK);
        uint256 l0 = Math.mulDiv(amount0, Math.mulDiv(sqrtPriceX96, sqrtUpper, Q96), sqrtUpper - sqrtPriceX96);
        uint256 l1 = Math.mulDiv(amount1, Q96, sqrtPriceX96 - sqrtLower);
        uint256 l = l0 < l1 ? l0 : l1;
        return uint128(l > type(uint128).max ? type(uint128).max : l);
    }

    // ---------------------------------------------------------------- the v4 pool

    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        if (msg.sender != address(poolManager)) revert LauncherUnauthorized(msg.sender);
        (Action action, bytes memory params) = abi.decode(data, (Action, bytes));
        if (action == Action.AddLiquidity) {
            (PoolKey memory key, uint128 liquidity) = abi.decode(params, (PoolKey, uint128));
            (BalanceDelta delta,) = poolManager.modifyLiquidity(
                key,
                ModifyLiquidityParams({
                    tickLower: MIN_TICK,
                    tickUpper: MAX_TICK,
                    liquidityDelta: int256(uint256(liquidity)),
                    salt: bytes32(0)
                }),
                ""
            );
            _settle(key.currency0, delta.amount0());
            _settle(key.currency1, delta.amount1());
            return abi.encode(delta);
        }
        (PoolKey memory swapKey, bool zeroForOne, uint256 amountIn, address trader) =
            abi.decode(params, (PoolKey, bool, uint256, address));
        BalanceDelta swapDelta = poolManager.swap(
            swapKey,
            SwapParams({
                zeroForOne: zeroForOne,
                amountSpecified: -int256(amountIn),
                sqrtPriceLimitX96: zeroForOne ? TickMath.MIN_SQRT_PRICE + 1 : TickMath.MAX_SQRT_PRICE - 1
            }),
            abi.encode(trader)
        );
        (Currency input, Currency output) = zeroForOne
            ? (swapKey.currency0, swapKey.currency1)
            : (swapKey.currency1, swapKey.currency0);
        (int128 inDelta, int128 outDelta) = zeroForOne
            ? (swapDelta.amount0(), swapDelta.amount1())
            : (swapDelta.amount1(), swapDelta.amount0());
        _settle(input, inDelta);
        uint256 amountOut = uint256(uint128(outDelta));
        if (amountOut > 0) poolManager.take(output, trader, amountOut);
        return abi.encode(uint256(uint128(-inDelta)), amountOut);
    }

    /// @dev Pays the pool manager what this contract owes in `currency` (a negative delta).
    function _settle(Currency currency, int128 delta) private {
        if (delta >= 0) return;
        poolManager.sync(currency);
        IERC20(Currency.unwrap(currency)).safeTransfer(address(poolManager), uint256(uint128(-delta)));
        poolManager.settle();
    }

    /// @dev Swaps `amountIn` (already held here) in the token's pool and sends the output to `trader`; input the
    /// pool did not take (a swap stopped at the price limit) goes back to the trader.
    function _swap(address token, bool isBuy, uint256 amountIn, address trader)
        private
        returns (uint256 amountOut)
    {
        PoolKey memory key = poolKeyOf(token);
        bool zeroForOne = isBuy != _isToken0(token);
        (uint256 paid, uint256 out) = abi.decode(
            poolManager.unlock(abi.encode(Action.Swap, abi.encode(key, zeroForOne, amountIn, trader))),
            (uint256, uint256)
        );
        if (out == 0) revert LauncherZeroOutput();
        if (paid < amountIn) IERC20(isBuy ? address(usdc) : token).safeTransfer(trader, amountIn - paid);
        return out;
    }

    function _poolState(address token) private view returns (uint160 sqrtPriceX96, uint128 liquidity) {
        PoolId id = poolKeyOf(token).toId();
        (sqrtPriceX96,,,) = poolManager.getSlot0(id);
        liquidity = poolManager.getLiquidity(id);
    }

    /// @dev Output of an exact-input swap in the token's pool, less the hook's 2.5% of the output. The pool has no LP
    /// fee and one full-range position, but the PoolManager still walks the tick bitmap a word (256 tick spacings)
    /// at a time and rounds each step's input up on its own, so a swap that crosses a word boundary yields a little
    /// less than one closed-form step would. This repeats the same steps so the quote equals the swap exactly.
    function _quotePool(address token, uint160 sqrtPriceX96, uint128 liquidity, bool isBuy, uint256 amountIn)
        private
        view
        returns (uint256)
    {
        if (amountIn == 0 || liquidity == 0) return 0;
        bool zeroForOne = isBuy != _isToken0(token);
        // slot0's tick can sit one below this after a swap that ended on a word edge; both give the same steps.
        int24 tick = TickMath.getTickAtSqrtPrice(sqrtPriceX96);
        uint256 out;
        while (amountIn > 0) {
            int24 tickNext = _nextStepTick(tick, zeroForOne);
            uint160 sqrtNext = TickMath.getSqrtPriceAtTick(tickNext);
            uint256 stepIn = zeroForOne
                ? SqrtPriceMath.getAmount0Delta(sqrtNext, sqrtPriceX96, liquidity, true)
                : SqrtPriceMath.getAmount1Delta(sqrtPriceX96, sqrtNext, liquidity, true);
            uint160 next = sqrtNext;
            if (amountIn >= stepIn) {
                amountIn -= stepIn;
            } else {
                next = SqrtPriceMath.getNextSqrtPriceFromInput(sqrtPriceX96, liquidity, amountIn, zeroForOne);
                amountIn = 0;
            }
            out += zeroForOne
                ? SqrtPriceMath.getAmount1Delta(next, sqrtPriceX96, liquidity, false)
                : SqrtPriceMath.getAmount0Delta(sqrtPriceX96, next, liquidity, false);
            if (next == sqrtNext) {
                // The position ends here: the pool has no liquidity beyond and gives the rest of the input back.
                if (tickNext == MIN_TICK || tickNext == MAX_TICK) break;
                tick = zeroForOne ? tickNext - 1 : tickNext;
            }
            sqrtPriceX96 = next;
        }
        return out - out * 250 / 10_000;
    }

    /// @dev The end of the PoolManager's next swap step (TickBitmap.nextInitializedTickWithinOneWord): the edge of
    /// the current bitmap word, or the position's edge, the only initialised ticks.
    function _nextStepTick(int24 tick, bool lte) private pure returns (int24 next) {
        int24 compressed = tick / TICK_SPACING;
        if (tick < 0 && tick % TICK_SPACING != 0) --compressed;
        if (lte) {
            next = (compressed - (compressed & 255)) * TICK_SPACING;
            if (next < MIN_TICK) next = MIN_TICK;
        } else {
            ++compressed;
            next = (compressed + 255 - (compressed & 255)) * TICK_SPACING;
            if (next > MAX_TICK) next = MAX_TICK;
        }
    }

    function _isToken0(address token) private view returns (bool) {
        return token < address(usdc);
    }

    function _known(address token) private view returns (Curve memory c) {
        c = _curves[token];
        if (c.initialVirtualUsdc == 0) revert LauncherUnknownToken(token);
    }

    /// @dev The curve's constant product: launch sets k = v0 * t0.
    function _k(Curve memory c) private pure returns (uint256) {
        return uint256(c.initialVirtualUsdc) * INITIAL_VIRTUAL_TOKENS;
    }
}
