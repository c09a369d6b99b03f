// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC721Receiver} from "@openzeppelin/contracts/token/ERC721/IERC721Receiver.sol";
import {IAccessCard} from "../interfaces/IAccessCard.sol";

/// @notice Test-only buyer that tries to buy again from inside onERC721Received, to prove the access card's
/// mint and mintBatch are reentrancy-guarded. Never deployed outside tests.
contract ReentrantCardBuyer is IERC721Receiver {
    /// @dev What onERC721Received does: 0 nothing (a well-behaved receiver), 1 calls mint(), 2 calls mintBatch(1).
    uint8 public reenterMode;
    IAccessCard public immutable card;
    IERC20 public immutable usdc;
    uint256 public received;

    constructor(IAccessCard card_, IERC20 usdc_) {
        card = card_;
        usdc = usdc_;
    }

    function setReenterMode(uint8 mode) external {
        reenterMode = mode;
    }

    /// @notice Approves the card for all its USDC and buys one card.
    function buy() external returns (uint256) {
        usdc.approve(address(card), type(uint256).max);
        return card.mint();
    }

    /// @notice Approves the card for all its USDC and buys `quantity` cards.
    function buyBatch(uint256 quantity) external returns (uint256) {
        usdc.approve(address(card), type(uint256).max);
        return card.mintBatch(quantity);
    }

    function onERC721Received(address, address, uint256, bytes calldata) external returns (bytes4) {
        received += 1;
        uint8 mode = reenterMode;
        if (mode == 1) card.mint();
        else if (mode == 2) card.mintBatch(1);
        return IERC721Receiver.onERC721Received.selector;
    }
}
