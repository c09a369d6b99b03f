// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TimelockController} from "@openzeppelin/contracts/governance/TimelockController.sol";

/// @title AI Economy platform timelock
/// @notice The owner of every platform contract: OpenZeppelin's TimelockController, so every power that changes the
/// rules or mints (roles, minters, caps, fees, prices, the oracle, the card's sales) is proposed by the operator's
/// multisig and takes effect at least MIN_DELAY later, in public. The platform's hot key is none of its roles.
/// @dev Deployed with a delay of zero and the deployer as a temporary proposer, executor and admin, so the deployment
/// can wire the contracts it owns in the same run; the deployment then raises the delay to at least MIN_DELAY
/// through the timelock itself and the deployer renounces every role (src/chain/deploy-owner.ts). From then on a
/// delay below MIN_DELAY is refused, so no operation, not even one the timelock schedules for itself, can shorten
/// the wait below two days.
contract PlatformTimelock is TimelockController {
    /// @notice The shortest delay the timelock accepts once it is out of its deployment set-up.
    uint256 public constant MIN_DELAY = 2 days;

    error PlatformTimelockDelayTooShort(uint256 delay, uint256 minimum);

    constructor(uint256 minDelay, address[] memory proposers, address[] memory executors, address admin)
        TimelockController(minDelay, proposers, executors, admin)
    {}

    /// @inheritdoc TimelockController
    /// @dev Only through the timelock itself, as OpenZeppelin's; never below MIN_DELAY.
    function updateDelay(uint256 newDelay) public override {
        if (newDelay < MIN_DELAY) revert PlatformTimelockDelayTooShort(newDelay, MIN_DELAY);
        super.updateDelay(newDelay);
    }
}
