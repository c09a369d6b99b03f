// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IValidationRegistry} from "./interfaces/IValidationRegistry.sol";

/// @title ERC-8004 Validation Registry (first-draft interface)
/// @notice A minimal validation registry bound to the platform's ERC-8004 identity registry, with the functions,
/// events and permissions of the standard's first draft: requests by the agent's owner or operator; answers 0-100
/// by the named validator only, repeatable; lookups by request, by agent and by validator. Two rules keep an entry
/// meaningful to anyone who reads it:
/// - A request's hash is derived on-chain from its requester and its data: `requestHashOf(requester, dataHash)`,
///   `dataHash` being what `validationRequest` calls `requestHash`. Nobody can take another's request hash, so the
///   first requester of a piece of work no longer owns its hash for good; the read functions keep their names and
///   take the derived hash.
/// - Validators are an allow-list the owner sets (`setValidator`, `isValidator`): a request names an allowed
///   validator, and only an allowed validator answers, so a validation by a stranger never exists here.
/// - Removing a validator retracts every answer it gave: `getValidationStatus` shows an answer only while its
///   validator is allowed and has not been removed since it answered, and reads a retracted one as no answer (score,
///   evidence hash and tag zero). Allowing the validator again does not bring them back; it answers anew. A key
///   rotation (allow the new key, remove the old) so takes the old key's word off the record at once, and a third
///   party reading the registry gets the answer the platform's verify route gives, which reads the same view.
/// The platform reads it for legacy decision verification: the request of a decision hash by the agents' owner (the
/// platform), answered with a non-zero score, counts as verified on-chain.
/// @dev Custom errors instead of revert strings; the validator, its score and the update time share one storage slot.
/// Not upgradeable; the owner moves in two steps (`Ownable2Step`).
contract ValidationRegistry is IValidationRegistry, Ownable2Step {
    uint8 public constant MAX_RESPONSE = 100;

    /// @dev Slot 0: validator (20 bytes), response (1), lastUpdate (8), term (3). A zero validator means "no such
    /// request". `term` is the validator's term (its removals so far) when it last answered.
    struct Validation {
        address validatorAddress;
        uint8 response;
        uint64 lastUpdate;
        uint24 term;
        uint256 agentId;
        bytes32 responseHash;
        bytes32 tag;
    }

    IERC721 private immutable _identityRegistry;

    mapping(bytes32 requestHash => Validation) private _validations;
    mapping(uint256 agentId => bytes32[] requestHashes) private _agentValidations;
    mapping(address validatorAddress => bytes32[] requestHashes) private _validatorRequests;
    /// @dev Whether the owner allows the validator, and how many times it was removed: its answers of an earlier term
    /// are retracted.
    struct ValidatorState {
        bool allowed;
        uint24 term;
    }

    mapping(address validatorAddress => ValidatorState) private _validators;

    constructor(address identityRegistry_, address initialOwner, address[] memory validators) Ownable(initialOwner) {
        if (identityRegistry_ == address(0)) revert ValidationRegistryInvalidAddress(address(0));
        _identityRegistry = IERC721(identityRegistry_);
        for (uint256 i = 0; i < validators.length; ++i) {
            _setValidator(validators[i], true);
        }
    }

    /// @inheritdoc IValidationRegistry
    function setValidator(address validatorAddress, bool allowed) external onlyOwner {
        _setValidator(validatorAddress, allowed);
    }

    /// @inheritdoc IValidationRegistry
    function isValidator(address validatorAddress) external view returns (bool) {
        return _validators[validatorAddress].allowed;
    }

    function _setValidator(address validatorAddress, bool allowed) private {
        if (validatorAddress == address(0)) revert ValidationRegistryInvalidAddress(address(0));
        ValidatorState storage state = _validators[validatorAddress];
        // A removal starts the validator's next term: every answer it gave so far is retracted.
        if (state.allowed && !allowed) ++state.term;
        state.allowed = allowed;
        emit ValidatorSet(validatorAddress, allowed);
    }

    /// @inheritdoc IValidationRegistry
    function requestHashOf(address requester, bytes32 dataHash) public pure returns (bytes32) {
        return keccak256(abi.encode(requester, dataHash));
    }

    /// @inheritdoc IValidationRegistry
    function validationRequest(address validatorAddress, uint256 agentId, string calldata requestUri, bytes32 dataHash)
        external
    {
        if (!_validators[validatorAddress].allowed) revert ValidationRegistryValidatorNotAllowed(validatorAddress);
        bytes32 requestHash = requestHashOf(msg.sender, dataHash);
        if (_validations[requestHash].validatorAddress != address(0)) {
            revert ValidationRegistryRequestExists(requestHash);
        }
        address owner = _identityRegistry.ownerOf(agentId); // reverts for an agent that does not exist
        if (
            msg.sender != owner && !_identityRegistry.isApprovedForAll(owner, msg.sender)
                && _identityRegistry.getApproved(agentId) != msg.sender
        ) revert ValidationRegistryUnauthorizedRequester(msg.sender, agentId);

        Validation storage v = _validations[requestHash];
        v.validatorAddress = validatorAddress;
        v.lastUpdate = uint64(block.timestamp);
        v.agentId = agentId;
        _agentValidations[agentId].push(requestHash);
        _validatorRequests[validatorAddress].push(requestHash);
        emit ValidationRequest(validatorAddress, agentId, requestUri, requestHash);
    }

    /// @inheritdoc IValidationRegistry
    function validationResponse(
        bytes32 requestHash,
        uint8 response,
        string calldata responseUri,
        bytes32 responseHash,
        bytes32 tag
    ) external {
        Validation storage v = _validations[requestHash];
        address validatorAddress = v.validatorAddress;
        if (validatorAddress == address(0)) revert ValidationRegistryUnknownRequest(requestHash);
        if (msg.sender != validatorAddress) revert ValidationRegistryUnauthorizedValidator(msg.sender, validatorAddress);
        ValidatorState memory state = _validators[validatorAddress];
        if (!state.allowed) revert ValidationRegistryValidatorNotAllowed(validatorAddress);
        if (response > MAX_RESPONSE) revert ValidationRegistryInvalidResponse(response);
        v.response = response;
        v.lastUpdate = uint64(block.timestamp);
        v.term = state.term;
        v.responseHash = responseHash;
        v.tag = tag;
        emit ValidationResponse(validatorAddress, v.agentId, requestHash, response, responseUri, responseHash, tag);
    }

    /// @inheritdoc IValidationRegistry
    function getValidationStatus(bytes32 requestHash)
        external
        view
        returns (
            address validatorAddress,
            uint256 agentId,
            uint8 response,
            bytes32 responseHash,
            bytes32 tag,
            uint256 lastUpdate
        )
    {
        Validation storage v = _validations[requestHash];
        validatorAddress = v.validatorAddress;
        if (validatorAddress == address(0)) revert ValidationRegistryUnknownRequest(requestHash);
        ValidatorState memory state = _validators[validatorAddress];
        // A retracted answer (its validator removed since) reads as no answer.
        if (!state.allowed || state.term != v.term) return (validatorAddress, v.agentId, 0, 0, 0, v.lastUpdate);
        return (validatorAddress, v.agentId, v.response, v.responseHash, v.tag, v.lastUpdate);
    }

    /// @inheritdoc IValidationRegistry
    function getAgentValidations(uint256 agentId) external view returns (bytes32[] memory) {
        return _agentValidations[agentId];
    }

    /// @inheritdoc IValidationRegistry
    function getValidatorRequests(address validatorAddress) external view returns (bytes32[] memory) {
        return _validatorRequests[validatorAddress];
    }

    /// @inheritdoc IValidationRegistry
    function getIdentityRegistry() external view returns (address) {
        return address(_identityRegistry);
    }
}
