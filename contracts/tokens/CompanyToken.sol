// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Burnable} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Burnable.sol";

/// @title A company's token
/// @notice Fixed-supply ERC-20 (18 decimals). The whole supply is minted once, to the token launcher, which sells it
/// on the bonding curve and moves what remains into the Uniswap v4 pool at graduation. Nobody can mint more; the
/// launcher burns whatever the pool could not take, so the supply only ever falls.
contract CompanyToken is ERC20, ERC20Burnable {
    constructor(string memory name_, string memory symbol_, uint256 supply, address holder) ERC20(name_, symbol_) {
        _mint(holder, supply);
    }
}
