// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721URIStorage} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721URIStorage.sol";
import {ERC721Utils} from "@openzeppelin/contracts/token/ERC721/utils/ERC721Utils.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {IIdentityRegistry} from "./interfaces/IIdentityRegistry.sol";

/// @title ERC-8004 Identity Registry
/// @notice Agent identities as ERC-721 tokens, written to the January 2026 revision of ERC-8004 and matching the
/// reference implementation (erc-8004/erc-8004-contracts, IdentityRegistryUpgradeable 2.0.0) in everything a
/// caller can observe: ids from 0, the "AgentIdentity"/"AGENT" collection, the EIP-712 domain and typehash, the
/// 5-minute deadline window, the events and their order. Permissionless: anyone registers agents, nobody administers.
/// @dev AGENT IDS START AT 0. The first registration gets id 0; never treat 0 as "no agent".
/// Differences from the reference, none visible through the standard's interface:
/// - not upgradeable (no proxy, no owner): the platform deploys it locally and points at the canonical registry
///   elsewhere;
/// - custom errors instead of revert strings, and OpenZeppelin's ERC-6093 errors for authorization;
/// - the agent wallet lives in its own address mapping and getMetadata answers the reserved key from it, instead of
///   storing the packed address in the metadata mapping (same bytes returned, same events);
/// - getAgentWallet reverts with ERC721NonexistentToken for an id never minted (reference 2.0.0 answers zero), so a
///   zero answer always means "cleared", never "no such agent";
/// - the ERC-721 receiver check of a contract registrant runs last, after every state change and event, instead of
///   right after the mint (checks-effects-interactions; the event order stays the reference's).
contract IdentityRegistry is ERC721URIStorage, EIP712, IIdentityRegistry {
    /// @notice How far ahead of the current block a wallet signature's deadline may be (the reference's value).
    uint256 public constant MAX_DEADLINE_DELAY = 5 minutes;

    /// @notice EIP-712 typehash of the struct the new wallet signs in setAgentWallet.
    bytes32 public constant AGENT_WALLET_SET_TYPEHASH =
        keccak256("AgentWalletSet(uint256 agentId,address newWallet,address owner,uint256 deadline)");

    string private constant AGENT_WALLET_KEY = "agentWallet";
    bytes32 private constant AGENT_WALLET_KEY_HASH = keccak256(bytes(AGENT_WALLET_KEY));

    /// @dev The id the next registration gets; starts at 0 like the reference.
    uint256 private _nextAgentId;

    mapping(uint256 agentId => mapping(string metadataKey => bytes metadataValue)) private _metadata;
    mapping(uint256 agentId => address wallet) private _agentWallet;

    constructor() ERC721("AgentIdentity", "AGENT") EIP712("ERC8004IdentityRegistry", "1") {}

    // ---------------------------------------------------------------- registration

    /// @inheritdoc IIdentityRegistry
    function register(string calldata agentURI, MetadataEntry[] calldata metadata)
        external
        returns (uint256 agentId)
    {
        agentId = _mintAgent(agentURI);
        for (uint256 i = 0; i < metadata.length; ++i) {
            _setMetadata(agentId, metadata[i].metadataKey, metadata[i].metadataValue);
        }
        _checkReceiver(agentId);
    }

    /// @inheritdoc IIdentityRegistry
    function register(string calldata agentURI) external returns (uint256 agentId) {
        agentId = _mintAgent(agentURI);
        _checkReceiver(agentId);
    }

    /// @inheritdoc IIdentityRegistry
    function register() external returns (uint256 agentId) {
        agentId = _mintAgent("");
        _checkReceiver(agentId);
    }

    /// @dev Mints the next id to the caller, stores the URI and makes the caller the agent wallet. Events in the
    /// reference's order: Transfer, MetadataUpdate (ERC-4906, only for a non-empty URI), Registered, MetadataSet.
    function _mintAgent(string memory agentURI) private returns (uint256 agentId) {
        agentId = _nextAgentId++;
        _mint(msg.sender, agentId);
        if (bytes(agentURI).length != 0) _setTokenURI(agentId, agentURI);
        emit Registered(agentId, agentURI, msg.sender);
        _agentWallet[agentId] = msg.sender;
        emit MetadataSet(agentId, AGENT_WALLET_KEY, AGENT_WALLET_KEY, abi.encodePacked(msg.sender));
    }

    /// @dev What _safeMint does after minting, done once every effect of the registration is in place: a contract
    /// registrant must accept ERC-721 tokens, so an identity cannot end up in a contract unable to move it.
    function _checkReceiver(uint256 agentId) private {
        ERC721Utils.checkOnERC721Received(msg.sender, address(0), msg.sender, agentId, "");
    }

    // ---------------------------------------------------------------- URI and metadata

    /// @inheritdoc IIdentityRegistry
    function setAgentURI(uint256 agentId, string calldata newURI) external {
        _requireOwnerOrOperator(agentId);
        _setTokenURI(agentId, newURI);
        emit URIUpdated(agentId, newURI, msg.sender);
    }

    /// @inheritdoc IIdentityRegistry
    function getMetadata(uint256 agentId, string calldata metadataKey) external view returns (bytes memory) {
        if (keccak256(bytes(metadataKey)) == AGENT_WALLET_KEY_HASH) return _packedWallet(_agentWallet[agentId]);
        return _metadata[agentId][metadataKey];
    }

    /// @inheritdoc IIdentityRegistry
    function setMetadata(uint256 agentId, string calldata metadataKey, bytes calldata metadataValue) external {
        _requireOwnerOrOperator(agentId);
        _setMetadata(agentId, metadataKey, metadataValue);
    }

    function _setMetadata(uint256 agentId, string calldata metadataKey, bytes calldata metadataValue) private {
        if (keccak256(bytes(metadataKey)) == AGENT_WALLET_KEY_HASH) {
            revert IdentityRegistryReservedMetadataKey(metadataKey);
        }
        _metadata[agentId][metadataKey] = metadataValue;
        emit MetadataSet(agentId, metadataKey, metadataKey, metadataValue);
    }

    // ---------------------------------------------------------------- agent wallet

    /// @inheritdoc IIdentityRegistry
    /// @dev The signature is checked as ECDSA first and as ERC-1271 second, like the reference: an EOA (including
    /// one delegated under EIP-7702, which has code) signs with its key, a contract wallet answers isValidSignature.
    /// A signature stays usable until its deadline; replaying it can only set the same wallet for the same owner.
    function setAgentWallet(uint256 agentId, address newWallet, uint256 deadline, bytes calldata signature) external {
        address owner = _requireOwnerOrOperator(agentId);
        if (newWallet == address(0)) revert IdentityRegistryInvalidWallet(address(0));
        if (block.timestamp > deadline) revert IdentityRegistryExpiredSignature(deadline);
        uint256 maxDeadline = block.timestamp + MAX_DEADLINE_DELAY;
        if (deadline > maxDeadline) revert IdentityRegistryDeadlineTooFar(deadline, maxDeadline);

        bytes32 digest =
            _hashTypedDataV4(keccak256(abi.encode(AGENT_WALLET_SET_TYPEHASH, agentId, newWallet, owner, deadline)));
        (address recovered, ECDSA.RecoverError err,) = ECDSA.tryRecover(digest, signature);
        bool valid = (err == ECDSA.RecoverError.NoError && recovered == newWallet)
            || SignatureChecker.isValidERC1271SignatureNow(newWallet, digest, signature);
        if (!valid) revert IdentityRegistryInvalidWalletSignature(newWallet);

        _agentWallet[agentId] = newWallet;
        emit MetadataSet(agentId, AGENT_WALLET_KEY, AGENT_WALLET_KEY, abi.encodePacked(newWallet));
    }

    /// @inheritdoc IIdentityRegistry
    function getAgentWallet(uint256 agentId) external view returns (address) {
        _requireOwned(agentId);
        return _agentWallet[agentId];
    }

    /// @inheritdoc IIdentityRegistry
    function unsetAgentWallet(uint256 agentId) external {
        _requireOwnerOrOperator(agentId);
        _clearAgentWallet(agentId);
    }

    function _clearAgentWallet(uint256 agentId) private {
        delete _agentWallet[agentId];
        emit MetadataSet(agentId, AGENT_WALLET_KEY, AGENT_WALLET_KEY, "");
    }

    // ---------------------------------------------------------------- internals

    /// @dev Returns the agent's owner; reverts with ERC721NonexistentToken or ERC721InsufficientApproval.
    function _requireOwnerOrOperator(uint256 agentId) private view returns (address owner) {
        owner = _ownerOf(agentId);
        _checkAuthorized(owner, msg.sender, agentId);
    }

    function _packedWallet(address wallet) private pure returns (bytes memory) {
        return wallet == address(0) ? bytes("") : abi.encodePacked(wallet);
    }

    /// @dev Every transfer between two accounts (self-transfers included, as in the reference) clears the agent
    /// wallet, so a new owner has to verify a wallet of their own. Mints keep the registrant's wallet.
    function _update(address to, uint256 tokenId, address auth) internal override returns (address from) {
        from = super._update(to, tokenId, auth);
        if (from != address(0) && to != address(0)) _clearAgentWallet(tokenId);
    }
}
