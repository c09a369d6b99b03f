// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title The token launcher's bonding curve
/// @notice The arithmetic of a constant-product curve with virtual reserves (USDC and tokens, k = their product),
/// quoted in USDC: what a buy or a sale moves, the fee on it, the price, and the reserve at which the curve ends.
/// TokenLauncher keeps the curves and moves the funds; this library only computes. The web app's quote repeats it
/// in bigint (packages/shared/src/curve.ts), and test/contracts/bonding-curve.test.ts holds the two to the same
/// result, unit for unit, against the deployed launcher.
/// @dev Rounding always favours the curve: the reserve left after a trade is rounded up (ceilDiv of k), so no amount
/// buys tokens for free and a sale never pays more than the curve holds; a fee is rounded up too.
library BondingCurve {
    uint256 internal constant BPS = 10_000;

    /// @dev The fee on `amount` USDC at `bps` basis points, rounded up.
    function feeOn(uint256 amount, uint256 bps) internal pure returns (uint256) {
        return Math.ceilDiv(amount * bps, BPS);
    }

    /// @dev Splits `available` USDC of a buy into what moves the curve and the fee on it, taking at most `needed` for
    /// the curve (the rest goes on to the pool the graduation creates).
    function buySplit(uint256 available, uint256 needed, uint256 bps)
        internal
        pure
        returns (uint256 curveIn, uint256 fee)
    {
        uint256 neededFee = feeOn(needed, bps);
        if (available >= needed + neededFee) return (needed, neededFee);
        curveIn = Math.mulDiv(available, BPS, BPS + bps);
        fee = available - curveIn;
    }

    /// @dev The token reserve that goes with a USDC reserve of `virtualUsdc`, rounded up.
    function tokenReserveAt(uint256 k, uint256 virtualUsdc) internal pure returns (uint256) {
        return Math.ceilDiv(k, virtualUsdc);
    }

    /// @dev A buy of `usdcIn` (fee excluded) on the curve (`k`, `virtualUsdc`, `virtualTokens`): its reserves after
    /// the buy and the tokens it gives.
    function buy(uint256 k, uint256 virtualUsdc, uint256 virtualTokens, uint256 usdcIn)
        internal
        pure
        returns (uint256 newVirtualUsdc, uint256 newVirtualTokens, uint256 tokensOut)
    {
        newVirtualUsdc = virtualUsdc + usdcIn;
        newVirtualTokens = tokenReserveAt(k, newVirtualUsdc);
        tokensOut = virtualTokens - newVirtualTokens;
    }

    /// @dev A sale of `tokensIn` to the curve: its reserves after the sale and the USDC it pays before the fee (which
    /// may exceed what the curve holds: the caller checks).
    function sell(uint256 k, uint256 virtualUsdc, uint256 virtualTokens, uint256 tokensIn)
        internal
        pure
        returns (uint256 newVirtualUsdc, uint256 newVirtualTokens, uint256 gross)
    {
        newVirtualTokens = virtualTokens + tokensIn;
        newVirtualUsdc = Math.ceilDiv(k, newVirtualTokens);
        gross = virtualUsdc - newVirtualUsdc;
    }

    /// @dev USDC (6 decimals) per whole token (18 decimals) at the curve's reserves.
    function price(uint256 virtualUsdc, uint256 virtualTokens) internal pure returns (uint256) {
        return Math.mulDiv(virtualUsdc, 1e18, virtualTokens);
    }

    /// @dev The value of `supply` tokens at the curve's price, in USDC.
    function marketCap(uint256 virtualUsdc, uint256 virtualTokens, uint256 supply) internal pure returns (uint256) {
        return Math.mulDiv(virtualUsdc, supply, virtualTokens);
    }

    /// @dev The smallest virtual USDC reserve V at which V * supply / ceil(k / V) reaches `threshold`: sqrt(G k / S)
    /// rounded up, then stepped up past the rounding of the token reserve (a step or two). 0 when eight steps do not
    /// reach it (a threshold too small for the rounding).
    function graduationVirtualUsdc(uint256 k, uint256 threshold, uint256 supply) internal pure returns (uint256 v) {
        v = Math.sqrt(Math.mulDiv(threshold, k, supply), Math.Rounding.Ceil);
        for (uint256 i = 0; v * supply < threshold * Math.ceilDiv(k, v); ++i) {
            if (i == 8) return 0;
            ++v;
        }
    }
}
