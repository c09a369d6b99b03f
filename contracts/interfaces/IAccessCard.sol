// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The access card's interface as the API contract lists it (docs/api/README.md, docs/contracts.md), for the platform and other contracts (staking).
interface IAccessCard {
    error AccessCardMintInactive();
    error AccessCardTrancheSoldOut(uint8 tranche);
    error AccessCardInvalidQuantity(uint256 quantity, uint256 max);
    error AccessCardInsufficientBalance(address buyer, uint256 balance, uint256 needed);
    error AccessCardInvalidTranche(uint8 tranche);
    error AccessCardTrancheNotSoldOut(uint8 tranche, uint256 remaining);
    error AccessCardUnauthorizedPlatform(address caller);
    error AccessCardAlreadyDeployed(uint256 tokenId);
    error AccessCardInvalidAddress(address account);
    error AccessCardInvalidPrice(uint256 price);
    error AccessCardPriceAboveMax(uint256 price, uint256 maxPrice);
    error AccessCardMintActive();
    error AccessCardInvalidListener(address listener);
    error AccessCardDeadlinePassed(uint256 deadline, uint256 timestamp);
    /// @notice The current tranche's price takes effect only at `opensAt` (`activateTranche` + `MINT_PRICE_DELAY`).
    error AccessCardTrancheNotOpen(uint8 tranche, uint256 opensAt);

    event CardMinted(address indexed buyer, uint256 indexed tokenId, uint8 indexed tranche, uint256 price);
    event CompanyDeployed(uint256 indexed tokenId, address indexed holder);
    event TrancheActivated(uint8 indexed tranche, uint256 price);
    event MintActiveSet(bool active);
    /// @notice `price` is what a card costs from `effectiveAt` (a block timestamp) on, unless replaced before then.
    event MintPriceScheduled(uint256 price, uint256 effectiveAt);
    event PlatformSet(address indexed previousPlatform, address indexed newPlatform);
    event Withdrawn(address indexed to, uint256 amount);
    event StakingSet(address indexed previousStaking, address indexed newStaking);

    function mint() external returns (uint256 tokenId);
    /// @notice Mints one card, reverting when the price is above `maxPrice` (what the buyer saw).
    function mint(uint256 maxPrice) external returns (uint256 tokenId);
    function mintBatch(uint256 quantity) external returns (uint256 firstTokenId);
    /// @notice Mints `quantity` cards (up to 5), reverting when the price of one is above `maxPrice`.
    function mintBatch(uint256 quantity, uint256 maxPrice) external returns (uint256 firstTokenId);
    /// @notice `mintBatch(quantity, maxPrice)` in one transaction with the buyer's EIP-2612 USDC permit of
    /// `maxPrice * quantity` to this contract.
    function mintWithPermit(uint256 quantity, uint256 maxPrice, uint256 deadline, uint8 v, bytes32 r, bytes32 s)
        external
        returns (uint256 firstTokenId);
    function canDeploy(address account) external view returns (uint256 tokenId);
    function markCompanyDeployed(uint256 tokenId) external;
    function companyDeployed(uint256 tokenId) external view returns (bool);
    function companyOwner(uint256 tokenId) external view returns (address);
    function totalMinted() external view returns (uint256);
    function trancheRemaining() external view returns (uint256);
    function currentTranche() external view returns (uint8);
    /// @notice What one card costs at this block's time: the price scheduled last once its time has come, the one
    /// before otherwise; 0 while the current tranche's price has not taken effect (nothing can be minted).
    function mintPrice() external view returns (uint256);
    /// @notice The price scheduled to replace `mintPrice()` and when, or (0, 0) when none is waiting.
    function pendingMintPrice() external view returns (uint256 price, uint256 effectiveAt);
    function mintActive() external view returns (bool);
    function tierOf(uint256 tokenId) external pure returns (uint8 tranche, uint256 multiplier);
}
