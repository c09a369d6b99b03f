// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title AI Economy emission token
/// @notice The ERC-20 (18 decimals) that primary-token stakers earn. Its total supply is exactly what the staking
/// contract has paid out. Only the minter mints, and the minter is set once, by the deployer, after deployment
/// (the staking contract needs this token's address in its constructor, so it cannot be a constructor argument
/// here). Once set it never changes and the deployer keeps no other right.
contract EmissionToken is ERC20 {
    /// @notice The account allowed to set the minter, once.
    address public immutable deployer;
    /// @notice The only account that may mint (the staking contract); zero until set.
    address public minter;

    error EmissionTokenUnauthorized(address caller);
    error EmissionTokenMinterAlreadySet(address minter);
    error EmissionTokenInvalidAddress(address account);

    event MinterSet(address indexed minter);

    constructor() ERC20("AI Economy Emission", "AIEM") {
        deployer = msg.sender;
    }

    /// @notice Sets the minter; only the deployer, only once.
    function setMinter(address minter_) external {
        if (msg.sender != deployer) revert EmissionTokenUnauthorized(msg.sender);
        if (minter != address(0)) revert EmissionTokenMinterAlreadySet(minter);
        if (minter_ == address(0)) revert EmissionTokenInvalidAddress(address(0));
        minter = minter_;
        emit MinterSet(minter_);
    }

    /// @notice Mints `amount` to `to`; only the minter.
    function mint(address to, uint256 amount) external {
        if (msg.sender != minter || msg.sender == address(0)) revert EmissionTokenUnauthorized(msg.sender);
        _mint(to, amount);
    }
}
