// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721Enumerable} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721Enumerable.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IERC4906} from "@openzeppelin/contracts/interfaces/IERC4906.sol";
import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {IAccessCard} from "./interfaces/IAccessCard.sol";

/// @notice What the access card tells the staking contract: a card moved, so its holder's boost ends.
interface ICardTransferListener {
    function onCardTransfer(address from, address to, uint256 cardId) external;
    /// @notice The card the listener was built for; `setStaking` accepts only a listener that names this card.
    function accessCard() external view returns (address);
}

/// @title AI Economy Access Card
/// @notice ERC-721 collection of 10,000 cards in three tiers sold as sequential tranches, paid in USDC.
/// One card lets its holder create one company; the platform locks the card to that company for good.
/// @dev Buyers can bound what they pay (`mint(maxPrice)`, `mintBatch(quantity, maxPrice)`), and a new price (by
/// `setMintPrice` or `activateTranche`) takes effect only `MINT_PRICE_DELAY` after the owner sets it, so a buyer of
/// the unbounded `mint()` / `mintBatch(quantity)` never pays more than the contract showed a delay earlier
/// (docs/contracts.md "Access card prices"). Every transfer is reported to the staking contract (when set), which
/// ends the boost the card gave its previous holder in the same block.
contract AccessCard is ERC721Enumerable, Ownable2Step, ReentrancyGuardTransient, IAccessCard, IERC4906 {
    using SafeERC20 for IERC20;

    uint256 public constant MAX_SUPPLY = 10_000;
    uint256 public constant MAX_BATCH = 5;
    /// @notice How long after `setMintPrice` or `activateTranche` the new price takes effect.
    uint256 public constant MINT_PRICE_DELAY = 1 days;
    uint8 public constant TRANCHE_COUNT = 3;
    /// @dev Last token id of tranches 1, 2 and 3: Black 1-1000, Gold 1001-4000, Silver 4001-10000.
    uint256 private constant TRANCHE_1_END = 1_000;
    uint256 private constant TRANCHE_2_END = 4_000;
    uint256 private constant TRANCHE_3_END = 10_000;

    IERC20 public immutable usdc;

    /// @dev The price in one slot, read once by every mint: `pending` replaces `current` from `effectiveAt` on
    /// (`mintPrice()` picks it by the block's time, nothing is written then). A `current` of 0 is a tranche whose price
    /// has not taken effect yet: nothing can be minted. Prices above 2^96 - 1 are refused.
    struct Price {
        uint96 current;
        uint96 pending;
        uint64 effectiveAt;
    }

    address public platform;
    Price private _price;
    bool public mintActive;
    uint8 public currentTranche;
    uint256 public totalMinted;

    /// @notice Told of every card transfer (the staking contract). Deployment sets it, and the platform refuses to
    /// start while it is zero: without it a card lent for one transaction would keep its boost.
    ICardTransferListener public staking;

    mapping(uint256 tokenId => bool) private _companyDeployed;

    string private _baseTokenURI;

    constructor(IERC20 usdc_, address initialOwner, address platform_, uint256 mintPrice_, string memory baseURI_)
        ERC721("AI Economy Access Card", "AIECARD")
        Ownable(initialOwner)
    {
        if (address(usdc_) == address(0)) revert AccessCardInvalidAddress(address(0));
        if (platform_ == address(0)) revert AccessCardInvalidAddress(address(0));
        if (mintPrice_ == 0) revert AccessCardInvalidPrice(0);
        usdc = usdc_;
        platform = platform_;
        if (mintPrice_ > type(uint96).max) revert AccessCardInvalidPrice(mintPrice_);
        // In effect at once: nobody can have seen another price before the contract exists.
        _price = Price(uint96(mintPrice_), uint96(mintPrice_), 0);
        currentTranche = 1;
        _baseTokenURI = baseURI_;
        emit PlatformSet(address(0), platform_);
        emit TrancheActivated(1, mintPrice_);
    }

    // ---------------------------------------------------------------- minting

    /// @inheritdoc IAccessCard
    function mint() external nonReentrant returns (uint256 tokenId) {
        tokenId = _mintCards(msg.sender, 1, type(uint256).max);
    }

    /// @inheritdoc IAccessCard
    function mint(uint256 maxPrice) external nonReentrant returns (uint256 tokenId) {
        tokenId = _mintCards(msg.sender, 1, maxPrice);
    }

    /// @inheritdoc IAccessCard
    function mintBatch(uint256 quantity) external nonReentrant returns (uint256 firstTokenId) {
        firstTokenId = _mintBatch(quantity, type(uint256).max);
    }

    /// @inheritdoc IAccessCard
    function mintBatch(uint256 quantity, uint256 maxPrice) external nonReentrant returns (uint256 firstTokenId) {
        firstTokenId = _mintBatch(quantity, maxPrice);
    }

    /// @inheritdoc IAccessCard
    /// @dev The permit is tried and its failure ignored (someone may have used the signature first, which gave the
    /// same allowance): the payment then needs the allowance, as `mintBatch` does. `deadline` is the mint's own
    /// deadline too, as the launcher's trades have: after it the call reverts even with an allowance already given.
    function mintWithPermit(uint256 quantity, uint256 maxPrice, uint256 deadline, uint8 v, bytes32 r, bytes32 s)
        external
        nonReentrant
        returns (uint256 firstTokenId)
    {
        if (block.timestamp > deadline) revert AccessCardDeadlinePassed(deadline, block.timestamp);
        try IERC20Permit(address(usdc)).permit(msg.sender, address(this), maxPrice * quantity, deadline, v, r, s) {}
            catch {}
        firstTokenId = _mintBatch(quantity, maxPrice);
    }

    function _mintBatch(uint256 quantity, uint256 maxPrice) private returns (uint256) {
        if (quantity == 0 || quantity > MAX_BATCH) revert AccessCardInvalidQuantity(quantity, MAX_BATCH);
        return _mintCards(msg.sender, quantity, maxPrice);
    }

    /// @dev The one path every sale takes: checks, then payment, then the cards (USDC is taken before any card
    /// exists, and a revert anywhere undoes both).
    function _mintCards(address buyer, uint256 quantity, uint256 maxPrice) private returns (uint256 firstTokenId) {
        if (!mintActive) revert AccessCardMintInactive();
        uint8 tranche = currentTranche;
        Price memory p = _price;
        uint256 price = _inEffect(p);
        if (price == 0) revert AccessCardTrancheNotOpen(tranche, p.effectiveAt);
        if (price > maxPrice) revert AccessCardPriceAboveMax(price, maxPrice);
        uint256 remaining = _trancheEnd(tranche) - totalMinted;
        if (remaining == 0) revert AccessCardTrancheSoldOut(tranche);
        if (quantity > remaining) revert AccessCardInvalidQuantity(quantity, remaining);

        uint256 cost = price * quantity;
        uint256 balance = usdc.balanceOf(buyer);
        if (balance < cost) revert AccessCardInsufficientBalance(buyer, balance, cost);
        usdc.safeTransferFrom(buyer, address(this), cost);

        firstTokenId = totalMinted + 1;
        totalMinted += quantity;
        for (uint256 i = 0; i < quantity; ++i) {
            uint256 tokenId = firstTokenId + i;
            _safeMint(buyer, tokenId);
            emit CardMinted(buyer, tokenId, tranche, price);
        }
    }

    // ---------------------------------------------------------------- company binding

    /// @inheritdoc IAccessCard
    function canDeploy(address account) external view returns (uint256) {
        uint256 n = balanceOf(account);
        uint256 best = 0;
        for (uint256 i = 0; i < n; ++i) {
            uint256 tokenId = tokenOfOwnerByIndex(account, i);
            if (!_companyDeployed[tokenId] && (best == 0 || tokenId < best)) best = tokenId;
        }
        return best;
    }

    /// @inheritdoc IAccessCard
    function markCompanyDeployed(uint256 tokenId) external {
        if (msg.sender != platform) revert AccessCardUnauthorizedPlatform(msg.sender);
        address holder = _requireOwned(tokenId);
        if (_companyDeployed[tokenId]) revert AccessCardAlreadyDeployed(tokenId);
        _companyDeployed[tokenId] = true;
        emit CompanyDeployed(tokenId, holder);
    }

    /// @inheritdoc IAccessCard
    function companyDeployed(uint256 tokenId) external view returns (bool) {
        return _companyDeployed[tokenId];
    }

    /// @inheritdoc IAccessCard
    function companyOwner(uint256 tokenId) external view returns (address) {
        return _requireOwned(tokenId);
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc IAccessCard
    function mintPrice() public view returns (uint256) {
        return _inEffect(_price);
    }

    /// @inheritdoc IAccessCard
    function pendingMintPrice() external view returns (uint256 price, uint256 effectiveAt) {
        Price memory p = _price;
        if (block.timestamp < p.effectiveAt) return (p.pending, p.effectiveAt);
    }

    /// @inheritdoc IAccessCard
    function trancheRemaining() external view returns (uint256) {
        return _trancheEnd(currentTranche) - totalMinted;
    }

    /// @inheritdoc IAccessCard
    function tierOf(uint256 tokenId) public pure returns (uint8 tranche, uint256 multiplier) {
        if (tokenId == 0 || tokenId > TRANCHE_3_END) return (0, 1);
        if (tokenId <= TRANCHE_1_END) return (1, 5);
        if (tokenId <= TRANCHE_2_END) return (2, 3);
        return (3, 2);
    }

    // ---------------------------------------------------------------- administration

    /// @notice Makes the next tranche current once the current one is sold out; its cards are sold at `price` from
    /// `MINT_PRICE_DELAY` on, and cannot be minted before (`AccessCardTrancheNotOpen`): a tranche's cards always sell
    /// at the price announced for them a delay earlier.
    function activateTranche(uint8 tranche, uint256 price) external onlyOwner {
        _requirePaused();
        if (tranche != currentTranche + 1 || tranche > TRANCHE_COUNT) revert AccessCardInvalidTranche(tranche);
        uint256 remaining = _trancheEnd(currentTranche) - totalMinted;
        if (remaining != 0) revert AccessCardTrancheNotSoldOut(currentTranche, remaining);
        currentTranche = tranche;
        _schedulePrice(0, price);
        emit TrancheActivated(tranche, price);
    }

    /// @notice Opens or closes card sales; only the owner (the timelock), so reopening waits for its delay.
    function setMintActive(bool active) external onlyOwner {
        mintActive = active;
        emit MintActiveSet(active);
    }

    /// @notice The emergency stop: closes card sales at once. The platform's key may call it as well as the owner:
    /// it only stops sales (no price, tranche or payment changes, and only the owner reopens them), so a hot key that
    /// sees something wrong can stop sales without waiting for the owner's timelock.
    function pauseMinting() external {
        if (msg.sender != platform && msg.sender != owner()) revert AccessCardUnauthorizedPlatform(msg.sender);
        mintActive = false;
        emit MintActiveSet(false);
    }

    /// @notice Schedules `price` to take effect `MINT_PRICE_DELAY` from now; until then mints pay the price in effect
    /// now. A price scheduled earlier and not yet in effect is replaced (schedule the current price to cancel it).
    /// A price of zero is refused: it would give cards away to anyone watching the mempool. Only while minting is
    /// paused, as before the delay existed.
    function setMintPrice(uint256 price) external onlyOwner {
        _requirePaused();
        _schedulePrice(mintPrice(), price);
    }

    function setPlatform(address newPlatform) external onlyOwner {
        if (newPlatform == address(0)) revert AccessCardInvalidAddress(address(0));
        address previous = platform;
        platform = newPlatform;
        emit PlatformSet(previous, newPlatform);
    }

    /// @notice Sends all USDC received from sales to `to`.
    function withdraw(address to) external onlyOwner {
        if (to == address(0)) revert AccessCardInvalidAddress(address(0));
        uint256 amount = usdc.balanceOf(address(this));
        usdc.safeTransfer(to, amount);
        emit Withdrawn(to, amount);
    }

    /// @notice Points metadata at a new base URI; marketplaces are told every card's metadata changed (ERC-4906).
    function setBaseURI(string calldata baseURI_) external onlyOwner {
        _baseTokenURI = baseURI_;
        emit BatchMetadataUpdate(1, MAX_SUPPLY);
    }

    /// @notice The contract told of every card transfer (the staking contract, to end boosts). It must be a contract
    /// that names this card as its `accessCard()`: an account without code, or a staking contract built for another
    /// card, would make every card transfer revert.
    function setStaking(address staking_) external onlyOwner {
        address named;
        if (staking_.code.length > 0) {
            try ICardTransferListener(staking_).accessCard() returns (address card) {
                named = card;
            } catch {}
        }
        if (named != address(this)) revert AccessCardInvalidListener(staking_);
        address previous = address(staking);
        staking = ICardTransferListener(staking_);
        emit StakingSet(previous, staking_);
    }

    // ---------------------------------------------------------------- internals

    function _trancheEnd(uint8 tranche) private pure returns (uint256) {
        if (tranche == 1) return TRANCHE_1_END;
        if (tranche == 2) return TRANCHE_2_END;
        return TRANCHE_3_END;
    }

    function _baseURI() internal view override returns (string memory) {
        return _baseTokenURI;
    }

    function _inEffect(Price memory p) private view returns (uint256) {
        return block.timestamp >= p.effectiveAt ? p.pending : p.current;
    }

    /// @dev `current` stays in effect (0 for a tranche not open yet) until `price` takes over after the delay.
    function _schedulePrice(uint256 current, uint256 price) private {
        if (price == 0 || price > type(uint96).max) revert AccessCardInvalidPrice(price);
        uint256 effectiveAt = block.timestamp + MINT_PRICE_DELAY;
        _price = Price(uint96(current), uint96(price), uint64(effectiveAt));
        emit MintPriceScheduled(price, effectiveAt);
    }

    function _requirePaused() private view {
        if (mintActive) revert AccessCardMintActive();
    }

    /// @dev Every change of a card's holder passes here; after a transfer (not a mint) the staking contract ends the
    /// previous holder's boost with this card, in this block.
    function _update(address to, uint256 tokenId, address auth) internal override returns (address from) {
        from = super._update(to, tokenId, auth);
        ICardTransferListener listener = staking;
        if (from != address(0) && address(listener) != address(0)) listener.onCardTransfer(from, to, tokenId);
    }

    /// @dev ERC-721, its enumerable extension, and ERC-4906 metadata updates.
    function supportsInterface(bytes4 interfaceId) public view override(ERC721Enumerable, IERC165) returns (bool) {
        return interfaceId == bytes4(0x49064906) || super.supportsInterface(interfaceId);
    }
}
