// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {CompanyToken} from "./CompanyToken.sol";

/// @title Company token deployer
/// @notice Creates company tokens for the token launcher that created it. The launcher deploys this contract in its
/// own constructor (so its address is CREATE from the launcher at nonce 1) and calls it to launch each token, at a
/// CREATE2 address fixed by the company key, name and symbol. CompanyToken's creation code lives here rather than in
/// the launcher, which keeps the launcher's runtime code well below EIP-170's 24,576 bytes.
contract CompanyTokenDeployer {
    /// @notice The launcher that created this deployer; the only caller of `deploy`, and the holder of every token.
    address public immutable launcher;

    /// @notice Only the launcher may deploy tokens.
    error CompanyTokenDeployerUnauthorized(address caller);

    constructor() {
        launcher = msg.sender;
    }

    /// @notice Deploys a company token with its whole `supply` minted to the launcher, at the CREATE2 address of
    /// `salt` (the company key). Launcher only.
    function deploy(bytes32 salt, string calldata name, string calldata symbol, uint256 supply)
        external
        returns (address)
    {
        if (msg.sender != launcher) revert CompanyTokenDeployerUnauthorized(msg.sender);
        return address(new CompanyToken{salt: salt}(name, symbol, supply, msg.sender));
    }
}
