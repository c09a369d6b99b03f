// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";
import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";

/// @notice The part of a Safe this contract uses: approving a transaction hash as one of its owners.
interface ISafeApproveHash {
    function approveHash(bytes32 hashToApprove) external;
}

/// @title Card Safe owner
/// @notice The single owner of a company's Safe (threshold 1). It holds no key and no money: it accepts what the current
/// holder of the company's access card signs (ERC-1271, an ECDSA signature or the holder's own ERC-1271 wallet), and
/// lets that holder approve a Safe transaction on-chain. So control of the Safe follows the card: the moment the card
/// changes hands, the new holder's signature is accepted and the previous holder's is not, with nothing to update.
/// @dev One implementation per chain; each card's owner is its clone (EIP-1167 with the card and its id as immutable
/// arguments, at an address that follows from them), made by `ownerFor` on the implementation.
contract CardSafeOwner is IERC1271 {
    /// @dev True in the implementation's own storage only: a clone's storage is its own, and empty.
    bool private implementation;

    error CardSafeOwnerNotHolder(address caller, address holder);
    /// @notice `ownerFor` called on a clone, or a card's function called on the implementation.
    error CardSafeOwnerWrongInstance();

    constructor() {
        implementation = true;
    }

    /// @notice The owner contract of the Safe of card `cardId` of `card`, made the first time it is asked for (anyone
    /// may ask; the result is the same).
    function ownerFor(IERC721 card, uint256 cardId) external returns (address owner) {
        if (!implementation) revert CardSafeOwnerWrongInstance();
        bytes memory args = abi.encode(card, cardId);
        owner = Clones.predictDeterministicAddressWithImmutableArgs(address(this), args, bytes32(0));
        if (owner.code.length == 0) Clones.cloneDeterministicWithImmutableArgs(address(this), args, bytes32(0));
    }

    /// @notice The access card whose holder controls the Safe, and the company's card.
    function cardOf() public view returns (IERC721 card, uint256 cardId) {
        if (implementation) revert CardSafeOwnerWrongInstance();
        return abi.decode(Clones.fetchCloneArgs(address(this)), (IERC721, uint256));
    }

    /// @notice The card's holder now (reverts for a card that does not exist).
    function holder() public view returns (address) {
        (IERC721 card, uint256 cardId) = cardOf();
        return card.ownerOf(cardId);
    }

    /// @notice ERC-1271: the card's holder signed `hash` (a Safe asks this for its transaction's EIP-712 hash).
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        return SignatureChecker.isValidSignatureNow(holder(), hash, signature)
            ? IERC1271.isValidSignature.selector
            : bytes4(0xffffffff);
    }

    /// @notice The card's holder approves a transaction of `safe` on-chain (Safe's `approveHash`), for a holder who
    /// sends transactions rather than signing messages.
    function approveHash(ISafeApproveHash safe, bytes32 hash) external {
        address current = holder();
        if (msg.sender != current) revert CardSafeOwnerNotHolder(msg.sender, current);
        safe.approveHash(hash);
    }
}
