// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The token launcher: launches company tokens, sells them on a constant-product bonding curve quoted in
/// USDC and, at the graduation threshold, moves them into a Uniswap v4 pool. `buy` and `sell` trade in either phase.
interface ITokenLauncher {
    /// @notice A company token was created and its curve opened.
    /// @param graduationUsdc USDC (6 decimals) the curve must raise to graduate.
    event TokenLaunched(
        bytes32 indexed companyKey,
        address indexed token,
        address indexed creator,
        string name,
        string symbol,
        uint256 graduationThreshold,
        uint256 graduationUsdc
    );
    /// @notice A trade on the bonding curve. Amounts are what the trader paid and received, the curve fee included
    /// (`fee`, USDC, kept for the fee recipient); the virtual reserves are the curve's state after the trade
    /// (price = virtualUsdc * 1e18 / virtualTokens, in USDC per whole token).
    event CurveTrade(
        address indexed token,
        address indexed trader,
        bool isBuy,
        uint256 usdcAmount,
        uint256 tokenAmount,
        uint256 virtualUsdc,
        uint256 virtualTokens,
        uint256 fee
    );
    /// @notice The token left the curve for its v4 pool. Every unit is accounted for: `usdcToPool` + `usdcToFees` is
    /// the USDC the curve raised (`usdcToFees`, the dust the pool could not take, joins the accrued curve fees);
    /// `tokensToPool` + `tokensBurned` is what the launcher still held.
    event Graduated(
        address indexed token,
        bytes32 indexed poolId,
        uint160 sqrtPriceX96,
        uint128 liquidity,
        uint256 usdcToPool,
        uint256 tokensToPool,
        uint256 usdcToFees,
        uint256 tokensBurned
    );
    event FeeHookSet(address hook);
    event PlatformSet(address indexed previous, address indexed current);
    event FeeRecipientSet(address indexed previous, address indexed current);
    event CurveFeeSet(uint16 previousBps, uint16 currentBps);
    /// @notice The fee recipient took the curve fees accrued so far.
    event CurveFeesWithdrawn(address indexed to, uint256 amount);

    error LauncherUnauthorized(address caller);
    error LauncherInvalidAddress(address account);
    /// @notice A token graduated: its pool names the fee hook, which can no longer change.
    error LauncherFeeHookLocked();
    error LauncherFeeHookNotSet();
    /// @notice The hook's address does not carry exactly the fee hook's permission bits.
    error LauncherFeeHookWrongFlags(address hook, uint160 flags, uint160 expected);
    /// @notice The hook has no code, or does not answer `launcher()` / `poolManager()`.
    error LauncherFeeHookNotAHook(address hook);
    /// @notice The hook serves another launcher.
    error LauncherFeeHookWrongLauncher(address hook, address launcher);
    /// @notice The hook serves another pool manager.
    error LauncherFeeHookWrongPoolManager(address hook, address poolManager);
    /// @notice The hook was built for another USDC (it would refuse every pool of this launcher).
    error LauncherFeeHookWrongUsdc(address hook, address usdc);
    error LauncherAlreadyLaunched(bytes32 companyKey);
    error LauncherInvalidName();
    error LauncherInvalidSymbol();
    error LauncherThresholdTooLow(uint256 threshold, uint256 minimum);
    error LauncherThresholdTooHigh(uint256 threshold, uint256 maximum);
    error LauncherUnknownToken(address token);
    error LauncherZeroAmount();
    error LauncherZeroOutput();
    error LauncherDeadlinePassed(uint256 deadline, uint256 timestamp);
    error LauncherSlippage(uint256 amountOut, uint256 minimum);
    error LauncherInsufficientReserve(uint256 requested, uint256 available);
    error LauncherFeeTooHigh(uint16 bps, uint16 maximum);
    /// @notice A `...WithPermit` call whose permit failed and left the allowance short of the trade.
    error LauncherPermitFailed(address token);

    /// @notice Buys tokens with `usdcIn` USDC: on the curve while bonding (the graduating buy spends the rest in the
    /// new pool), in the v4 pool once graduated. Approve the USDC to this contract first.
    /// @return The tokens bought, at least `minTokensOut`.
    function buy(address token, uint256 usdcIn, uint256 minTokensOut, uint256 deadline) external returns (uint256);

    /// @notice Sells `tokensIn` tokens for USDC: to the curve while bonding, in the v4 pool once graduated. Approve
    /// the tokens to this contract first.
    /// @return The USDC paid, after the fee, at least `minUsdcOut`.
    function sell(address token, uint256 tokensIn, uint256 minUsdcOut, uint256 deadline) external returns (uint256);

    /// @notice The tokens `buy` would give for `usdcIn` now: the curve's part after its fee and, for a buy that
    /// completes the curve, what the rest buys in the pool its graduation creates; in the pool once graduated.
    function quoteBuy(address token, uint256 usdcIn) external view returns (uint256);

    /// @notice The USDC `sell` would pay for `tokensIn` now, after the fee. On the curve the payout is capped at the
    /// USDC the curve holds (the sale itself reverts with LauncherInsufficientReserve beyond it).
    function quoteSell(address token, uint256 tokensIn) external view returns (uint256);

    /// @notice The token's current price and market cap: the curve's while bonding, the pool's once graduated.
    /// @return price USDC (6 decimals) per whole token.
    /// @return marketCap USDC (6 decimals): price times the circulating-plus-pooled supply.
    function priceOf(address token) external view returns (uint256 price, uint256 marketCap);

    /// @notice Whether the token has left the curve for its v4 pool.
    function graduated(address token) external view returns (bool);
}
