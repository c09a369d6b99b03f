// SPDX-License-Identifier: LGPL-3.0-only
pragma solidity >=0.8.0;

contract TestAvatar {
    receive() external payable {}

    function exec(
        address payable to,
        uint256 value,
        bytes calldata data,
        uint8 operation
    ) external {
        bool success;
        bytes memory response;
        if (operation == 1) (success, ) = to.delegatecall(data);
        else (success, response) = to.call{value: value}(data);
        if (!success) {
            assembly {
                revert(add(response, 0x20), mload(response))
            }
        }
    }

    function execTransactionFromModule(
        address payable to,
        uint256 value,
        bytes calldata data,
        uint8 operation
    ) external returns (bool success) {
        if (operation == 1) (success, ) = to.delegatecall(data);
        else (success, ) = to.call{value: value}(data);
    }

    function execTransactionFromModuleReturnData(
        address to,
        uint256 value,
        bytes memory data,
        uint8 operation
    ) external returns (bool success, bytes memory returnData) {
        if (operation == 1) (success, ) = to.delegatecall(data);
        else (success, returnData) = to.call{value: value}(data);
    }
}
