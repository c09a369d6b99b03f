// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";

/// @title AI Economy primary token
/// @notice The platform's primary ERC-20 (18 decimals), staked in staking pool 0. New tokens are minted only by
/// accounts holding MINTER_ROLE, which the admin grants (the platform on the local chain, the epoch distributor
/// later). EIP-2612 `permit` lets a stake be one transaction (`Staking.depositWithPermit`).
contract PrimaryToken is ERC20, ERC20Permit, AccessControl {
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");

    error PrimaryTokenInvalidAddress(address account);

    /// @param admin Holds DEFAULT_ADMIN_ROLE and so decides who may mint; it gets no minting right by itself.
    constructor(address admin) ERC20("AI Economy", "AIE") ERC20Permit("AI Economy") {
        if (admin == address(0)) revert PrimaryTokenInvalidAddress(address(0));
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
    }

    /// @notice Mints `amount` to `to`; only for MINTER_ROLE.
    function mint(address to, uint256 amount) external onlyRole(MINTER_ROLE) {
        _mint(to, amount);
    }
}
