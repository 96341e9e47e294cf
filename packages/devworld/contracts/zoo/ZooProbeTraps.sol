// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ZooToken} from "./ZooBase.sol";

/// "Maintenance mode": while frozen, every transfer and every balance read reverts. It stops
/// trading (a pause); no balance moves, so nothing is taken from anyone.
contract ZooFreezeReads is ZooToken {
    bool public frozen;

    constructor(string memory name_, string memory symbol_, uint256 supply) {
        _initToken(name_, symbol_, 18, supply, msg.sender);
    }

    function setMaintenance(bool on) external onlyOwner {
        frozen = on;
    }

    function balanceOf(address account) public view override returns (uint256) {
        require(!frozen, "ZooFreezeReads: under maintenance");
        return _balances[account];
    }

    function _update(address from, address to, uint256 value) internal override {
        require(!frozen, "ZooFreezeReads: under maintenance");
        _move(from, to, value);
    }
}

/// The owner seizes the whole balance of any holder: a balance changed at will. The emptied holder
/// is not blocked from anything (it has nothing left to send).
contract ZooSeizeAll is ZooToken {
    constructor(string memory name_, string memory symbol_, uint256 supply) {
        _initToken(name_, symbol_, 18, supply, msg.sender);
    }

    function seize(address holder) external onlyOwner {
        _move(holder, msg.sender, _balances[holder]);
    }
}

/// A team allocation of 50,000 tokens the owner can claim once: a mint, of a fixed amount, one time.
contract ZooOneShotMint is ZooToken {
    uint256 public constant TEAM_ALLOCATION = 50_000 ether;
    bool public claimed;

    constructor(string memory name_, string memory symbol_, uint256 supply) {
        _initToken(name_, symbol_, 18, supply, msg.sender);
    }

    function claimTeamAllocation() external onlyOwner {
        require(!claimed, "ZooOneShotMint: already claimed");
        claimed = true;
        _mint(msg.sender, TEAM_ALLOCATION);
    }
}
