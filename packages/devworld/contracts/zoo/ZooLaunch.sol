// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ZooPooledToken} from "./ZooBase.sol";

/// A token launched on a bonding-curve launchpad whose transfers into the launchpad (sells back
/// to its curve) revert for everyone but the deployer, fixed at construction: buys from the curve
/// work, no holder can sell. Its twin is the clean token on the same launchpad.
contract ZooCurveGate is ZooPooledToken {
    address public immutable launchpad;

    constructor(string memory name_, string memory symbol_, uint256 supply, address launchpad_)
        ZooPooledToken(name_, symbol_, supply, address(0), new address[](0))
    {
        launchpad = launchpad_;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (_isTrade(from, to) && to == launchpad) revert("ZooCurveGate: selling to the curve is disabled");
        _move(from, to, value);
    }
}

interface IZooVestedToken {
    function transfer(address to, uint256 amount) external returns (bool);
    function balanceOf(address account) external view returns (uint256);
}

/// A vesting contract that holds a token for its beneficiary until a release time. It names the
/// token it vests `token0` (its only token): a holder with a token0() that is no pair of the token.
contract ZooVesting {
    address public immutable token0;
    address public immutable beneficiary;
    uint256 public immutable releaseTime;

    constructor(address token_, address beneficiary_, uint256 releaseTime_) {
        token0 = token_;
        beneficiary = beneficiary_;
        releaseTime = releaseTime_;
    }

    function release() external {
        require(block.timestamp >= releaseTime, "ZooVesting: not yet");
        require(IZooVestedToken(token0).transfer(beneficiary, IZooVestedToken(token0).balanceOf(address(this))), "ZooVesting: transfer failed");
    }
}
