// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @notice Tests only: a USDC that behaves as Circle's FiatTokenV2_2 on Base does for a permit. Its EIP-712 domain
/// is name "USD Coin", version "2", the chain's id and its own address, it answers `DOMAIN_SEPARATOR()`, `nonces`,
/// `version()` and ERC-2612's `permit`, and it has no ERC-5267 `eip712Domain()`: a wallet cannot read its domain
/// from it and must know it. Its name, symbol and version are constants, not storage, so a test can put this code at
/// Base's USDC address (anvil_setCode) and sign with the known domain there. Anyone may mint.
contract FiatTokenUSDC is ERC20 {
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant PERMIT_TYPEHASH =
        keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)");

    mapping(address owner => uint256) public nonces;

    constructor() ERC20("USD Coin", "USDC") {}

    function name() public pure override returns (string memory) {
        return "USD Coin";
    }

    function symbol() public pure override returns (string memory) {
        return "USDC";
    }

    function version() public pure returns (string memory) {
        return "2";
    }

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    // solhint-disable-next-line func-name-mixedcase
    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(
            abi.encode(DOMAIN_TYPEHASH, keccak256(bytes(name())), keccak256(bytes(version())), block.chainid, address(this))
        );
    }

    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)
        external
    {
        require(deadline >= block.timestamp, "FiatTokenV2: permit is expired");
        bytes32 structHash = keccak256(abi.encode(PERMIT_TYPEHASH, owner, spender, value, nonces[owner]++, deadline));
        bytes32 digest = keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash));
        require(ECDSA.recover(digest, v, r, s) == owner, "EIP2612: invalid signature");
        _approve(owner, spender, value);
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
