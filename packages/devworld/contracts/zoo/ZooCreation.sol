// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ZooPooledToken} from "./ZooBase.sol";

/// Writes 5 % of the supply into the balance of an account given to its constructor, without a
/// Transfer event, and keeps that account nowhere: neither its code, its storage nor any event
/// names the holder. Only the creation itself shows it.
contract ZooArgAllocation is ZooPooledToken {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address stash)
        ZooPooledToken(name_, symbol_, supply - supply / 20, factory, quotes)
    {
        uint256 share = supply / 20;
        _balances[stash] += share;
        _totalSupply += share;
    }
}
