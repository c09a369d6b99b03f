// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Burnable} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Burnable.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";

/// @title A company's token
/// @notice Fixed-supply ERC-20 (18 decimals). The whole supply is minted once, to the token launcher, which sells it
/// on the bonding curve and moves what remains into the Uniswap v4 pool at graduation. Nobody can mint more; the
/// launcher burns whatever the pool could not take, so the supply only ever falls. EIP-2612 `permit` (EIP-712 domain:
/// the token's name, or its symbol when the name is longer than the 31 bytes an EIP-712 name may have here; version
/// "1"; readable with ERC-5267 `eip712Domain()`), so a sale through the launcher's `sellWithPermit`, or a stake, is
/// one transaction.
contract CompanyToken is ERC20, ERC20Burnable, ERC20Permit {
    constructor(string memory name_, string memory symbol_, uint256 supply, address holder)
        ERC20(name_, symbol_)
        ERC20Permit(bytes(name_).length < 32 ? name_ : symbol_)
    {
        _mint(holder, supply);
    }
}
