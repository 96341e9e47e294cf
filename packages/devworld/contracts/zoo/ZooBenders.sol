// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ZooERC20Core, ZooOwnable, ZooTransfers} from "./ZooBase.sol";

/// The clean token with bytes32 `name()` and `symbol()`, as some early tokens have.
contract ZooBytes32Meta is ZooTransfers, ZooOwnable {
    bytes32 public immutable name;
    bytes32 public immutable symbol;
    uint8 public constant decimals = 18;

    constructor(bytes32 name_, bytes32 symbol_, uint256 supply) {
        name = name_;
        symbol = symbol_;
        _setOwner(msg.sender);
        _mint(msg.sender, supply);
    }
}

/// The clean token whose `transfer`, `transferFrom` and `approve` return nothing, as some early
/// tokens do. Callers that insist on a boolean fail to decode the (empty) return data.
contract ZooNoReturn is ZooERC20Core, ZooOwnable {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;

    constructor(string memory name_, string memory symbol_, uint256 supply) {
        name = name_;
        symbol = symbol_;
        _setOwner(msg.sender);
        _mint(msg.sender, supply);
    }

    function transfer(address to, uint256 value) external {
        _transfer(msg.sender, to, value);
    }

    function transferFrom(address from, address to, uint256 value) external {
        _spendAllowance(from, msg.sender, value);
        _transfer(from, to, value);
    }

    function approve(address spender, uint256 value) external {
        _approve(msg.sender, spender, value);
    }
}
