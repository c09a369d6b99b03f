// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @title Launcher approver
/// @notice Lets a company's trading role approve the token launcher, and nothing else, to take any token the Safe
/// holds, so the role can sell a token nobody listed when the role was set up. The Safe delegatecalls
/// `approveLauncher`: the code runs as the Safe and can only approve `launcher`, whose `sell` takes tokens from its
/// caller alone. It keeps no state; called directly it refuses.
contract LauncherApprover {
    /// @notice The only spender this contract ever approves.
    address public immutable launcher;
    address private immutable self;

    error LauncherApproverNotDelegated();

    constructor(address launcher_) {
        launcher = launcher_;
        self = address(this);
    }

    /// @notice Run by delegatecall from the Safe: `token.approve(launcher, amount)` as the Safe.
    function approveLauncher(IERC20 token, uint256 amount) external {
        if (address(this) == self) revert LauncherApproverNotDelegated();
        SafeERC20.forceApprove(token, launcher, amount);
    }
}
