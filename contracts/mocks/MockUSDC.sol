// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @notice Stand-in for USDC on the local chain only: 6 decimals, minted by its owner to fund dev accounts. Like
/// USDC it supports EIP-2612 `permit`, so a mint or a buy can be one transaction with a signed permit.
contract MockUSDC is ERC20, ERC20Permit, Ownable {
    constructor(address initialOwner)
        ERC20("USD Coin (mock)", "USDC")
        ERC20Permit("USD Coin (mock)")
        Ownable(initialOwner)
    {}

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}
