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
