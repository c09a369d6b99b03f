// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {AccessControlDefaultAdminRules} from "@openzeppelin/contracts/access/extensions/AccessControlDefaultAdminRules.sol";

/// @title AI Economy primary token
/// @notice The platform's primary ERC-20 (18 decimals), staked in staking pool 0. New tokens are minted only by
/// accounts holding MINTER_ROLE, which the admin grants (the platform on the local chain, the epoch distributor
/// later). EIP-2612 `permit` lets a stake be one transaction (`Staking.depositWithPermit`).
/// @dev The admin role follows OpenZeppelin's AccessControlDefaultAdminRules: exactly one admin, which cannot be
/// granted by `grantRole`; handing it over takes two steps (`beginDefaultAdminTransfer`, then
/// `acceptDefaultAdminTransfer` by the new admin) with ADMIN_DELAY between them, and a change of that delay waits too.
/// So a stolen or careless admin key cannot move the right to mint to another key in one transaction unseen.
contract PrimaryToken is ERC20, ERC20Permit, AccessControlDefaultAdminRules {
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");
    /// @notice The wait between starting and accepting a hand-over of the admin role.
    uint48 public constant ADMIN_DELAY = 2 days;

    error PrimaryTokenInvalidAddress(address account);

    /// @param admin Holds DEFAULT_ADMIN_ROLE and so decides who may mint; it gets no minting right by itself.
    constructor(address admin)
        ERC20("AI Economy", "AIE")
        ERC20Permit("AI Economy")
        AccessControlDefaultAdminRules(ADMIN_DELAY, admin)
    {
        if (admin == address(0)) revert PrimaryTokenInvalidAddress(address(0));
    }

    /// @notice Mints `amount` to `to`; only for MINTER_ROLE.
    function mint(address to, uint256 amount) external onlyRole(MINTER_ROLE) {
        _mint(to, amount);
    }
}
