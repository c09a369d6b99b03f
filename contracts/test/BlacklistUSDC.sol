// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MockUSDC} from "../mocks/MockUSDC.sol";

/// @notice Test only: the mock USDC with USDC's blacklist, under which an address can neither send nor receive.
contract BlacklistUSDC is MockUSDC {
    mapping(address account => bool) public isBlacklisted;

    error Blacklisted(address account);

    constructor(address initialOwner) MockUSDC(initialOwner) {}

    function setBlacklisted(address account, bool blacklisted) external onlyOwner {
        isBlacklisted[account] = blacklisted;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (isBlacklisted[from]) revert Blacklisted(from);
        if (isBlacklisted[to]) revert Blacklisted(to);
        super._update(from, to, value);
    }
}
