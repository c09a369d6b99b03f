// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IUnlockCallback} from "@uniswap/v4-core/src/interfaces/callback/IUnlockCallback.sol";
import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";

/// @notice Test-only third-party router: swaps directly in a v4 pool (not through the token launcher), pulling the
/// input from the caller (who approves this contract) and sending the output to `recipient`. Negative
/// `amountSpecified` is exact input, positive is exact output (v4's convention). No hook data, so the pool's hook
/// sees this contract as the swap's sender. Never deployed outside tests.
contract SimpleSwapper is IUnlockCallback {
    IPoolManager public immutable poolManager;

    struct Call {
        address payer;
        address recipient;
        PoolKey key;
        bool zeroForOne;
        int256 amountSpecified;
    }

    constructor(IPoolManager poolManager_) {
        poolManager = poolManager_;
    }

    /// @return amountIn What the caller paid.
    /// @return amountOut What the recipient received.
    function swap(PoolKey calldata key, bool zeroForOne, int256 amountSpecified, address recipient)
        external
        returns (uint256 amountIn, uint256 amountOut)
    {
        bytes memory result =
            poolManager.unlock(abi.encode(Call(msg.sender, recipient, key, zeroForOne, amountSpecified)));
        (amountIn, amountOut) = abi.decode(result, (uint256, uint256));
    }

    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        require(msg.sender == address(poolManager), "not the pool manager");
        Call memory c = abi.decode(data, (Call));
        BalanceDelta delta = poolManager.swap(
            c.key,
            SwapParams({
                zeroForOne: c.zeroForOne,
                amountSpecified: c.amountSpecified,
                sqrtPriceLimitX96: c.zeroForOne ? TickMath.MIN_SQRT_PRICE + 1 : TickMath.MAX_SQRT_PRICE - 1
            }),
            ""
        );
        (Currency input, Currency output) =
            c.zeroForOne ? (c.key.currency0, c.key.currency1) : (c.key.currency1, c.key.currency0);
        (int128 inDelta, int128 outDelta) =
            c.zeroForOne ? (delta.amount0(), delta.amount1()) : (delta.amount1(), delta.amount0());
        uint256 amountIn = uint256(uint128(-inDelta));
        uint256 amountOut = uint256(uint128(outDelta));
        poolManager.sync(input);
        IERC20(Currency.unwrap(input)).transferFrom(c.payer, address(poolManager), amountIn);
        poolManager.settle();
        poolManager.take(output, c.recipient, amountOut);
        return abi.encode(amountIn, amountOut);
    }
}
