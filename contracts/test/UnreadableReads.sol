// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// A token whose reads fail where a test says: `balanceOf` reverts for one account, and
/// `totalSupply` reverts when asked at construction. Another account holds exactly 2^256 - 1 as
/// `balanceOf` answers it. What tokenrisk's readers must carry as "not read", never as 0, beside
/// the values 0 and 2^256 - 1 that are read.
contract UnreadableReadsToken is ERC20 {
    address public immutable unreadable;
    address public immutable full;
    bool public immutable supplyReverts;

    constructor(address unreadable_, address full_, bool supplyReverts_) ERC20("Unreadable Reads", "UNRD") {
        unreadable = unreadable_;
        full = full_;
        supplyReverts = supplyReverts_;
        _mint(msg.sender, 1_000_000 ether);
    }

    function balanceOf(address account) public view override returns (uint256) {
        require(account != unreadable, "balance hidden");
        if (account == full) return type(uint256).max;
        return super.balanceOf(account);
    }

    function totalSupply() public view override returns (uint256) {
        require(!supplyReverts, "supply hidden");
        return super.totalSupply();
    }
}
