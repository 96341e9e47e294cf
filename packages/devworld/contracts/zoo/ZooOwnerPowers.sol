// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ZooToken} from "./ZooBase.sol";

// Each token below is the clean token plus one power of its owner. The powers that are also the
// logic of a proxy (ZooProxies.sol) are abstract contracts of their own.

/// The owner can mint any amount to anyone, at any time (also the logic behind a proxy).
abstract contract ZooMintPower is ZooToken {
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}

/// The owner can block any address from sending or receiving (also the logic behind a proxy).
abstract contract ZooBlacklistPower is ZooToken {
    mapping(address => bool) public isBlacklisted;

    event BlacklistChanged(address indexed account, bool blocked);

    function setBlacklisted(address account, bool blocked) external onlyOwner {
        isBlacklisted[account] = blocked;
        emit BlacklistChanged(account, blocked);
    }

    function _update(address from, address to, uint256 value) internal override {
        require(!isBlacklisted[from] && !isBlacklisted[to], "ZooBlacklist: address is blacklisted");
        _move(from, to, value);
    }
}

contract ZooMintable is ZooMintPower {
    constructor(string memory name_, string memory symbol_, uint256 supply) {
        _initToken(name_, symbol_, 18, supply, msg.sender);
    }
}

contract ZooBlacklist is ZooBlacklistPower {
    constructor(string memory name_, string memory symbol_, uint256 supply) {
        _initToken(name_, symbol_, 18, supply, msg.sender);
    }
}

/// The owner can stop every transfer, its own included.
contract ZooPausable is ZooToken {
    bool public paused;

    event Paused(bool paused);

    constructor(string memory name_, string memory symbol_, uint256 supply) {
        _initToken(name_, symbol_, 18, supply, msg.sender);
    }

    function pause() external onlyOwner {
        paused = true;
        emit Paused(true);
    }

    function unpause() external onlyOwner {
        paused = false;
        emit Paused(false);
    }

    function _update(address from, address to, uint256 value) internal override {
        require(!paused, "ZooPausable: token transfers are paused");
        _move(from, to, value);
    }
}

/// The owner can move tokens out of any account without its approval.
contract ZooForceTransfer is ZooToken {
    constructor(string memory name_, string memory symbol_, uint256 supply) {
        _initToken(name_, symbol_, 18, supply, msg.sender);
    }

    function adminTransfer(address from, address to, uint256 amount) external onlyOwner {
        _transfer(from, to, amount);
    }
}

/// The owner can run SELFDESTRUCT (since Cancun it only sweeps the contract's ether, but the
/// opcode is there and runs).
contract ZooSelfDestruct is ZooToken {
    constructor(string memory name_, string memory symbol_, uint256 supply) {
        _initToken(name_, symbol_, 18, supply, msg.sender);
    }

    function destroy() external onlyOwner {
        selfdestruct(payable(msg.sender));
    }
}

/// Ownership can be renounced (owner() then reads zero) while a second admin, kept in a
/// private slot with no getter, still mints at will.
contract ZooHiddenOwner is ZooToken {
    address private _controller;

    constructor(string memory name_, string memory symbol_, uint256 supply, address controller) {
        _initToken(name_, symbol_, 18, supply, msg.sender);
        _controller = controller;
    }

    function mint(address to, uint256 amount) external {
        require(msg.sender == _controller, "ZooHiddenOwner: not allowed");
        _mint(to, amount);
    }
}
