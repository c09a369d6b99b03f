// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @notice Tests only: a minimal contract wallet (ERC-1271) whose signatures are those of one owner EOA, so the
/// wallet-signature verifier can be shown to accept a contract wallet's signature and to refuse anyone else's.
contract MockContractWallet is IERC1271 {
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    /// @dev tryRecover, not recover: a malformed signature answers "invalid" instead of reverting, as ERC-1271
    /// wallets commonly do; the verifier must refuse both.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        (address recovered, ECDSA.RecoverError err,) = ECDSA.tryRecover(hash, signature);
        if (err == ECDSA.RecoverError.NoError && recovered == owner) return IERC1271.isValidSignature.selector;
        return 0xffffffff;
    }
}
