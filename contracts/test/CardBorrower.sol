// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IStaking} from "../interfaces/IStaking.sol";

/// @notice Test-only attacker: a staker that borrows an access card for one transaction (the lender approved it),
/// refreshes its staking boost while holding it, and hands it straight back, hoping to keep the boost.
contract CardBorrower {
    IERC721 public immutable card;
    IStaking public immutable staking;

    constructor(IERC721 card_, IStaking staking_) {
        card = card_;
        staking = staking_;
    }

    function stake(IERC20 token, uint256 pid, uint256 amount) external {
        token.transferFrom(msg.sender, address(this), amount);
        token.approve(address(staking), amount);
        staking.deposit(pid, amount);
    }

    /// @dev `named`: refresh with the card named (refreshBoost(pid, cardId)) or by the scan (refreshBoost(pid)).
    function borrowAndBoost(address lender, uint256 cardId, uint256 pid, bool named) external {
        card.transferFrom(lender, address(this), cardId);
        if (named) staking.refreshBoost(pid, cardId);
        else staking.refreshBoost(pid);
        card.transferFrom(address(this), lender, cardId);
    }

    function harvest(uint256 pid) external {
        staking.harvest(pid);
    }
}
