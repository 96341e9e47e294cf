// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IZooV2Factory, ZooPooledToken} from "./ZooBase.sol";

/// Anyone can buy; selling into any of its pools reverts for everyone but the deployer.
contract ZooHoneypot is ZooPooledToken {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function _update(address from, address to, uint256 value) internal override {
        if (_isTrade(from, to) && isPool[to]) revert("ZooHoneypot: selling is disabled");
        _move(from, to, value);
    }
}

/// Two pools (the quotes given, in order); selling into the second one reverts for everyone but
/// the deployer, selling into the first works.
contract ZooPoolHoneypot is ZooPooledToken {
    address public immutable trapPool;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {
        require(quotes.length == 2, "ZooPoolHoneypot: two quotes expected");
        trapPool = IZooV2Factory(factory).getPair(address(this), quotes[1]);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (_isTrade(from, to) && to == trapPool) revert("ZooPoolHoneypot: selling into this pool is disabled");
        _move(from, to, value);
    }
}

/// After a buy, the same address cannot buy again for COOLDOWN seconds. Sells are free.
contract ZooCooldown is ZooPooledToken {
    uint256 public constant COOLDOWN = 60;
    mapping(address => uint256) public lastBuyAt;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function _update(address from, address to, uint256 value) internal override {
        if (_isTrade(from, to) && isPool[from]) {
            require(block.timestamp >= lastBuyAt[to] + COOLDOWN, "ZooCooldown: wait before buying again");
            lastBuyAt[to] = block.timestamp;
        }
        _move(from, to, value);
    }
}

/// No transfer (buy, sell or wallet-to-wallet) may move more than 1 % of the initial supply.
contract ZooMaxTx is ZooPooledToken {
    uint256 public immutable maxTransactionAmount;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {
        maxTransactionAmount = supply / 100;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (_isTrade(from, to)) require(value <= maxTransactionAmount, "ZooMaxTx: amount exceeds the maximum transaction");
        _move(from, to, value);
    }
}

/// No wallet (pools excepted) may hold more than 2 % of the initial supply.
contract ZooMaxWallet is ZooPooledToken {
    uint256 public immutable maxWalletAmount;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {
        maxWalletAmount = (supply * 2) / 100;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (_isTrade(from, to) && !isPool[to]) {
            require(_balances[to] + value <= maxWalletAmount, "ZooMaxWallet: balance would exceed the maximum wallet");
        }
        _move(from, to, value);
    }
}

/// Selling the whole balance reverts; selling less works.
contract ZooCannotSellAll is ZooPooledToken {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function _update(address from, address to, uint256 value) internal override {
        if (_isTrade(from, to) && isPool[to] && value >= _balances[from]) {
            revert("ZooCannotSellAll: cannot sell the whole balance");
        }
        _move(from, to, value);
    }
}

/// Buying from its pools reverts for everyone but the deployer; holders (who got tokens by
/// transfer) can sell.
contract ZooNoBuy is ZooPooledToken {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function _update(address from, address to, uint256 value) internal override {
        if (_isTrade(from, to) && isPool[from]) revert("ZooNoBuy: buying is disabled");
        _move(from, to, value);
    }
}
