// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IValidationRegistry} from "./interfaces/IValidationRegistry.sol";

/// @title ERC-8004 Validation Registry (first-draft interface)
/// @notice A minimal validation registry bound to the platform's ERC-8004 identity registry, with the functions,
/// events and permissions of the standard's first draft and its reference scaffold: requests by the agent's owner
/// or operator, each request hash once; answers 0-100 by the named validator only, repeatable; lookups by request,
/// by agent and by validator. The platform reads it for legacy decision verification: a decision hash that is a
/// request hash here, answered with a non-zero score, counts as verified on-chain.
/// @dev Differences from the reference scaffold, none visible to a successful caller: custom errors instead of
/// revert strings; the validator, its score and the update time share one storage slot. Not upgradeable, no owner.
contract ValidationRegistry is IValidationRegistry {
    uint8 public constant MAX_RESPONSE = 100;

    /// @dev Slot 0: validator (20 bytes), response (1), lastUpdate (8). A zero validator means "no such request".
    struct Validation {
        address validatorAddress;
        uint8 response;
        uint64 lastUpdate;
        uint256 agentId;
        bytes32 responseHash;
        bytes32 tag;
    }

    IERC721 private immutable _identityRegistry;

    mapping(bytes32 requestHash => Validation) private _validations;
    mapping(uint256 agentId => bytes32[] requestHashes) private _agentValidations;
    mapping(address validatorAddress => bytes32[] requestHashes) private _validatorRequests;

    constructor(address identityRegistry_) {
        if (identityRegistry_ == address(0)) revert ValidationRegistryInvalidAddress(address(0));
        _identityRegistry = IERC721(identityRegistry_);
    }

    /// @inheritdoc IValidationRegistry
    function validationRequest(address validatorAddress, uint256 agentId, string calldata requestUri, bytes32 requestHash)
        external
    {
        if (validatorAddress == address(0)) revert ValidationRegistryInvalidAddress(address(0));
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
        if (response > MAX_RESPONSE) revert ValidationRegistryInvalidResponse(response);
        v.response = response;
        v.lastUpdate = uint64(block.timestamp);
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
