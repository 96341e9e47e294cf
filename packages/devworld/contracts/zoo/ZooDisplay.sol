// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ZooPooledToken} from "./ZooBase.sol";

// Balances that fall with nothing moving: shown and not held, or written down for real.

/// Every holder but the pools and the deployer is shown a quarter more than it holds (a bonus that
/// exists only in balanceOf) from the first tokens it receives until the owner reveals its
/// account; transfers move only what is held. Revealing shows the real balance and takes nothing:
/// what the holder can send stays the same.
contract ZooDisplayBalance is ZooPooledToken {
    mapping(address => bool) public boosted;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function balanceOf(address account) public view override returns (uint256) {
        uint256 held = _balances[account];
        return boosted[account] ? held + held / 4 : held;
    }

    function reveal(address account) external onlyOwner {
        boosted[account] = false;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (_isTrade(from, to) && !isPool[to]) boosted[to] = true;
        _move(from, to, value);
    }
}

/// The look-alike that takes: reveal() halves what the holder holds, with no Transfer and no one
/// credited (the supply still counts the lost half). The holder can send less than before.
contract ZooSilentTake is ZooPooledToken {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function reveal(address account) external onlyOwner {
        _balances[account] /= 2;
    }
}
