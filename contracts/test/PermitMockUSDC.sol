// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @notice Tests only: MockUSDC with EIP-2612 permit, as real USDC has. Its storage starts as MockUSDC's (ERC20, then
/// Ownable), so a test that finds the local chain's MockUSDC without permit can put this code at its address
/// (anvil_setCode) and keep every balance, allowance and the owner.
contract PermitMockUSDC is ERC20, Ownable, ERC20Permit {
    constructor(address initialOwner) ERC20("USD Coin (mock)", "USDC") Ownable(initialOwner) ERC20Permit("USD Coin (mock)") {}

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}
