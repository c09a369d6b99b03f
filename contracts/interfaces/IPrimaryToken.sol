// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice What a minter needs from the primary token (`PrimaryToken`): the caller must hold its MINTER_ROLE.
interface IPrimaryToken {
    function mint(address to, uint256 amount) external;
}
