// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The ERC-8004 validation registry in the shape of the standard's first published draft (the "legacy"
/// entries the decision verification still accepts, docs/api/decisions.md "Verification"): an agent's owner or operator asks a validator to check
/// a piece of work identified by `requestHash`; the validator answers with a score from 0 (failed) to 100 (passed),
/// as often as it likes (the latest answer counts). Agents are the tokens of the ERC-8004 identity registry.
interface IValidationRegistry {
    /// @notice The zero address cannot be the identity registry or a validator.
    error ValidationRegistryInvalidAddress(address account);
    /// @notice A request with this hash exists already; each request hash is used once.
    error ValidationRegistryRequestExists(bytes32 requestHash);
    /// @notice The caller is neither the agent's owner nor an operator it approved (for the agent or for all).
    error ValidationRegistryUnauthorizedRequester(address caller, uint256 agentId);
    /// @notice No request with this hash exists.
    error ValidationRegistryUnknownRequest(bytes32 requestHash);
    /// @notice Only the validator named in the request may answer it.
    error ValidationRegistryUnauthorizedValidator(address caller, address validatorAddress);
    /// @notice A response is a score from 0 to 100.
    error ValidationRegistryInvalidResponse(uint8 response);
    /// @notice The validator is not on the owner's allow-list.
    error ValidationRegistryValidatorNotAllowed(address validatorAddress);

    /// @notice The owner allowed (`allowed` true) or removed a validator. A removal retracts every answer the validator
    /// gave before it, for good (see getValidationStatus).
    event ValidatorSet(address indexed validatorAddress, bool allowed);

    event ValidationRequest(
        address indexed validatorAddress, uint256 indexed agentId, string requestUri, bytes32 indexed requestHash
    );

    event ValidationResponse(
        address indexed validatorAddress,
        uint256 indexed agentId,
        bytes32 indexed requestHash,
        uint8 response,
        string responseUri,
        bytes32 responseHash,
        bytes32 tag
    );

    /// @notice Asks `validatorAddress`, an allowed validator, to validate the work at `requestUri` (committed to by
    /// `dataHash`) done by agent `agentId`. The request's hash is `requestHashOf(msg.sender, dataHash)`, named in the
    /// ValidationRequest event. The agent's owner or an approved operator only; reverts with ERC721NonexistentToken
    /// (from the identity registry) for an agent that does not exist.
    function validationRequest(address validatorAddress, uint256 agentId, string calldata requestUri, bytes32 dataHash)
        external;

    /// @notice The hash of the request `requester` made for `dataHash`: keccak256(abi.encode(requester, dataHash)).
    function requestHashOf(address requester, bytes32 dataHash) external pure returns (bytes32);

    /// @notice Whether the owner allows the validator (requests name it, and it answers).
    function isValidator(address validatorAddress) external view returns (bool);

    /// @notice Allows or removes a validator. Owner only. Removing an allowed validator retracts its answers: they read
    /// as no answer from then on, even if the validator is allowed again (it may answer anew).
    function setValidator(address validatorAddress, bool allowed) external;

    /// @notice The requested validator answers (again, if it likes, while it is allowed): `response` 0-100, an optional URI and hash of
    /// its evidence, and a free tag (for example a category).
    function validationResponse(
        bytes32 requestHash,
        uint8 response,
        string calldata responseUri,
        bytes32 responseHash,
        bytes32 tag
    ) external;

    /// @notice The request and its latest answer. `response`, `responseHash` and `tag` are zero until the validator
    /// answers, and zero again once the answer is retracted (its validator removed since it answered, whether or not
    /// allowed again); `lastUpdate` is the timestamp of the request, then of the latest answer. Reverts with
    /// ValidationRegistryUnknownRequest for an unknown hash.
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
        );

    /// @notice Every request hash made for the agent, oldest first.
    function getAgentValidations(uint256 agentId) external view returns (bytes32[] memory);

    /// @notice Every request hash addressed to the validator, oldest first.
    function getValidatorRequests(address validatorAddress) external view returns (bytes32[] memory);

    /// @notice The identity registry whose agents this registry validates.
    function getIdentityRegistry() external view returns (address);
}
