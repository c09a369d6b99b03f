// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IUnlockCallback} from "@uniswap/v4-core/src/interfaces/callback/IUnlockCallback.sol";
import {Hooks} from "@uniswap/v4-core/src/libraries/Hooks.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {Currency, CurrencyLibrary} from "@uniswap/v4-core/src/types/Currency.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {BeforeSwapDelta} from "@uniswap/v4-core/src/types/BeforeSwapDelta.sol";
import {ModifyLiquidityParams, SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";

/// @title The platform fee hook of graduated company-token pools
/// @notice Charges 2.5% of every swap for the platform fee recipient, as a return-delta hook modelled on v4-core's
/// `FeeTakingHook`: the fee is taken in the swap's unspecified currency (the output of an exact-input swap, the
/// input of an exact-output one), so the trader receives 2.5% less or pays 2.5% more.
/// The fee is kept as ERC-6909 claims of the PoolManager held by this hook (`mint`), not sent on: a recipient
/// that cannot receive (USDC can blacklist an address) never blocks a swap, and a swap writes one claim balance
/// instead of making a token transfer. The fee recipient withdraws the claims as tokens to any address.
/// Only the token launcher may initialise a pool with this hook or add liquidity to it, so nobody can pre-create
/// a company's pool to grief its graduation, and nobody, the launcher included, can ever remove liquidity.
/// @dev Deployed through the standard CREATE2 deployer at an address whose low 14 bits are exactly its
/// permissions: beforeInitialize, beforeAddLiquidity, beforeRemoveLiquidity, afterSwap, afterSwapReturnDelta.
contract PlatformFeeHook is IHooks, IUnlockCallback, Ownable2Step {
    using CurrencyLibrary for Currency;

    uint256 public constant FEE_BIPS = 250;
    uint256 public constant TOTAL_BIPS = 10_000;

    IPoolManager public immutable poolManager;
    address public immutable launcher;
    address public immutable usdc;
    address public feeRecipient;

    /// @notice A swap in a company-token pool, from the trader's side: amounts are net of the fee.
    /// @dev The pool's price after the swap is not repeated here: the PoolManager's own `Swap(id, sender, amount0,
    /// amount1, sqrtPriceX96, liquidity, tick, fee)` log of the same pool carries it, emitted just before this one in
    /// the same transaction (before `afterSwap` runs), so the hook reads no pool state.
    /// @param trader The account the launcher traded for, or the swap's sender (a router) for swaps made elsewhere.
    event PoolTrade(
        address indexed token,
        address indexed trader,
        bool isBuy,
        uint256 usdcAmount,
        uint256 tokenAmount,
        uint256 fee,
        bool feeInUsdc
    );
    event FeeRecipientSet(address indexed previous, address indexed current);
    /// @notice The fee recipient turned `amount` of the hook's fee claims in `currency` into tokens sent to `to`.
    event FeesWithdrawn(address indexed currency, address indexed to, uint256 amount);

    error HookNotImplemented();
    error HookOnlyPoolManager(address caller);
    error HookOnlyLauncher(address sender);
    error HookLiquidityLocked();
    error HookInvalidAddress(address account);
    error HookNotUsdcPool();
    error HookUnauthorized(address caller);
    error HookInsufficientFees(uint256 requested, uint256 available);

    modifier onlyPoolManager() {
        if (msg.sender != address(poolManager)) revert HookOnlyPoolManager(msg.sender);
        _;
    }

    constructor(IPoolManager poolManager_, address launcher_, address usdc_, address feeRecipient_, address owner_)
        Ownable(owner_)
    {
        if (launcher_ == address(0)) revert HookInvalidAddress(launcher_);
        if (usdc_ == address(0)) revert HookInvalidAddress(usdc_);
        if (feeRecipient_ == address(0)) revert HookInvalidAddress(feeRecipient_);
        poolManager = poolManager_;
        launcher = launcher_;
        usdc = usdc_;
        feeRecipient = feeRecipient_;
        Hooks.validateHookPermissions(
            IHooks(address(this)),
            Hooks.Permissions({
                beforeInitialize: true,
                afterInitialize: false,
                beforeAddLiquidity: true,
                afterAddLiquidity: false,
                beforeRemoveLiquidity: true,
                afterRemoveLiquidity: false,
                beforeSwap: false,
                afterSwap: true,
                beforeDonate: false,
                afterDonate: false,
                beforeSwapReturnDelta: false,
                afterSwapReturnDelta: true,
                afterAddLiquidityReturnDelta: false,
                afterRemoveLiquidityReturnDelta: false
            })
        );
        emit FeeRecipientSet(address(0), feeRecipient_);
    }

    function setFeeRecipient(address recipient) external onlyOwner {
        if (recipient == address(0)) revert HookInvalidAddress(recipient);
        emit FeeRecipientSet(feeRecipient, recipient);
        feeRecipient = recipient;
    }

    /// @notice Fee claims (ERC-6909, in the PoolManager) the hook holds in `currency`, not yet withdrawn.
    function feesAccrued(Currency currency) external view returns (uint256) {
        return poolManager.balanceOf(address(this), currency.toId());
    }

    /// @notice Turns `amount` of the fee claims in `currency` into tokens sent to `to`; by the fee recipient only.
    function withdrawFees(Currency currency, address to, uint256 amount) external {
        if (msg.sender != feeRecipient) revert HookUnauthorized(msg.sender);
        if (to == address(0)) revert HookInvalidAddress(to);
        uint256 available = poolManager.balanceOf(address(this), currency.toId());
        if (amount > available) revert HookInsufficientFees(amount, available);
        poolManager.unlock(abi.encode(currency, to, amount));
        emit FeesWithdrawn(Currency.unwrap(currency), to, amount);
    }

    /// @dev Burning the claims credits the hook; taking the tokens to `to` settles the credit.
    function unlockCallback(bytes calldata data) external onlyPoolManager returns (bytes memory) {
        (Currency currency, address to, uint256 amount) = abi.decode(data, (Currency, address, uint256));
        poolManager.burn(address(this), currency.toId(), amount);
        poolManager.take(currency, to, amount);
        return "";
    }

    function beforeInitialize(address sender, PoolKey calldata key, uint160)
        external
        view
        onlyPoolManager
        returns (bytes4)
    {
        if (sender != launcher) revert HookOnlyLauncher(sender);
        if (Currency.unwrap(key.currency0) != usdc && Currency.unwrap(key.currency1) != usdc) revert HookNotUsdcPool();
        return IHooks.beforeInitialize.selector;
    }

    function beforeAddLiquidity(address sender, PoolKey calldata, ModifyLiquidityParams calldata, bytes calldata)
        external
        view
        onlyPoolManager
        returns (bytes4)
    {
        if (sender != launcher) revert HookOnlyLauncher(sender);
        return IHooks.beforeAddLiquidity.selector;
    }

    function beforeRemoveLiquidity(address, PoolKey calldata, ModifyLiquidityParams calldata, bytes calldata)
        external
        pure
        returns (bytes4)
    {
        revert HookLiquidityLocked();
    }

    function afterSwap(
        address sender,
        PoolKey calldata key,
        SwapParams calldata params,
        BalanceDelta delta,
        bytes calldata hookData
    ) external onlyPoolManager returns (bytes4, int128) {
        // The fee is in the unspecified currency (FeeTakingHook's rule).
        bool specifiedIs0 = (params.amountSpecified < 0 == params.zeroForOne);
        uint256 fee = _takeFee(key, delta, specifiedIs0);
        _emitTrade(sender, key, delta, specifiedIs0, fee, hookData);
        return (IHooks.afterSwap.selector, int128(uint128(fee)));
    }

    function _takeFee(PoolKey calldata key, BalanceDelta delta, bool specifiedIs0) private returns (uint256 fee) {
        int128 unspecified = specifiedIs0 ? delta.amount1() : delta.amount0();
        fee = uint256(uint128(unspecified < 0 ? -unspecified : unspecified)) * FEE_BIPS / TOTAL_BIPS;
        if (fee > 0) poolManager.mint(address(this), (specifiedIs0 ? key.currency1 : key.currency0).toId(), fee);
    }

    struct Trade {
        address token;
        address trader;
        bool isBuy;
        uint256 usdcAmount;
        uint256 tokenAmount;
        uint256 fee;
        bool feeInUsdc;
    }

    function _emitTrade(
        address sender,
        PoolKey calldata key,
        BalanceDelta delta,
        bool specifiedIs0,
        uint256 fee,
        bytes calldata hookData
    ) private {
        Trade memory t;
        bool usdcIs0 = Currency.unwrap(key.currency0) == usdc;
        t.token = Currency.unwrap(usdcIs0 ? key.currency1 : key.currency0);
        t.trader = sender;
        if (sender == launcher && hookData.length == 32) t.trader = abi.decode(hookData, (address));
        t.fee = fee;
        t.feeInUsdc = specifiedIs0 != usdcIs0;
        // The trader's side, net of the fee: the fee lowers what it receives or raises what it pays.
        int128 amount0 = delta.amount0();
        int128 amount1 = delta.amount1();
        if (specifiedIs0) amount1 -= int128(uint128(fee));
        else amount0 -= int128(uint128(fee));
        int128 usdcDelta = usdcIs0 ? amount0 : amount1;
        int128 tokenDelta = usdcIs0 ? amount1 : amount0;
        t.isBuy = tokenDelta > 0;
        t.usdcAmount = uint128(usdcDelta < 0 ? -usdcDelta : usdcDelta);
        t.tokenAmount = uint128(tokenDelta < 0 ? -tokenDelta : tokenDelta);
        _emit(t);
    }

    function _emit(Trade memory t) private {
        emit PoolTrade(t.token, t.trader, t.isBuy, t.usdcAmount, t.tokenAmount, t.fee, t.feeInUsdc);
    }

    // Hooks this contract has no permission for: the pool manager never calls them.

    function afterInitialize(address, PoolKey calldata, uint160, int24) external pure returns (bytes4) {
        revert HookNotImplemented();
    }

    function afterAddLiquidity(
        address,
        PoolKey calldata,
        ModifyLiquidityParams calldata,
        BalanceDelta,
        BalanceDelta,
        bytes calldata
    ) external pure returns (bytes4, BalanceDelta) {
        revert HookNotImplemented();
    }

    function afterRemoveLiquidity(
        address,
        PoolKey calldata,
        ModifyLiquidityParams calldata,
        BalanceDelta,
        BalanceDelta,
        bytes calldata
    ) external pure returns (bytes4, BalanceDelta) {
        revert HookNotImplemented();
    }

    function beforeSwap(address, PoolKey calldata, SwapParams calldata, bytes calldata)
        external
        pure
        returns (bytes4, BeforeSwapDelta, uint24)
    {
        revert HookNotImplemented();
    }

    function beforeDonate(address, PoolKey calldata, uint256, uint256, bytes calldata)
        external
        pure
        returns (bytes4)
    {
        revert HookNotImplemented();
    }

    function afterDonate(address, PoolKey calldata, uint256, uint256, bytes calldata) external pure returns (bytes4) {
        revert HookNotImplemented();
    }
}
