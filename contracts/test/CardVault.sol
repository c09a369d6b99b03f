// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC721Receiver} from "@openzeppelin/contracts/token/ERC721/IERC721Receiver.sol";
import {IStaking} from "../interfaces/IStaking.sol";

/// @notice Test-only attacker: a vault that holds one access card and stakes everyone's tokens under its own
/// address, so one card boosts all of them; the card never moves, so no transfer ends the boost.
contract CardVault is IERC721Receiver {
    IStaking public immutable staking;

    constructor(IStaking staking_) {
        staking = staking_;
    }

    /// @notice Pools `amount` of the caller's `token` into the vault's stake in `pid`.
    function pool(IERC20 token, uint256 pid, uint256 amount) external {
        token.transferFrom(msg.sender, address(this), amount);
        token.approve(address(staking), amount);
        staking.deposit(pid, amount);
    }

    function boost(uint256 pid) external {
        staking.refreshBoost(pid);
    }

    function harvest(uint256 pid) external {
        staking.harvest(pid);
    }

    function onERC721Received(address, address, uint256, bytes calldata) external pure returns (bytes4) {
        return IERC721Receiver.onERC721Received.selector;
    }
}
