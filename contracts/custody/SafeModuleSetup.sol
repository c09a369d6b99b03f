// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The part of a Safe this contract uses.
interface ISafeModules {
    function enableModule(address module) external;
}

/// @title Safe module setup
/// @notice Enables modules while a Safe is set up: the Safe's `setup` delegatecalls `enableModules`, so `address(this)`
/// is the Safe and the call back to it comes from the Safe itself, which is what `enableModule` requires. Called
/// directly, it only calls itself and fails.
contract SafeModuleSetup {
    function enableModules(address[] calldata modules) external {
        for (uint256 i; i < modules.length; ++i) {
            ISafeModules(address(this)).enableModule(modules[i]);
        }
    }
}
