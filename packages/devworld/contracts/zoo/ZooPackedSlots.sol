// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ZooToken} from "./ZooBase.sol";

/// Renounced, yet two admins kept in private storage can mint, each packed beside a small field
/// in its slot: the guardian one byte up, behind a bool (slot 7); the keeper one byte up, behind a
/// uint8 (slot 9). The uint256 fields before them start a new slot each time.
/// A reader that takes the low 20 bytes of a slot for its address reads neither.
contract ZooPackedAdmins is ZooToken {
    uint256 public launchedAt;
    bool public launched;
    address private _guardian;
    uint256 public feeUpdatedAt;
    uint8 public feeLevel;
    address private _keeper;

    constructor(string memory name_, string memory symbol_, uint256 supply, address guardian, address keeper) {
        _initToken(name_, symbol_, 18, supply, msg.sender);
        launchedAt = block.timestamp;
        launched = true;
        _guardian = guardian;
        feeLevel = 3;
        _keeper = keeper;
    }

    function mint(address to, uint256 amount) external {
        require(msg.sender == _guardian || msg.sender == _keeper, "ZooPackedAdmins: not allowed");
        _mint(to, amount);
    }
}

/// The same layout, renounced: the packed accounts are records (a marketing wallet behind a bool,
/// a treasury behind a uint8) that hold no power over the token.
contract ZooPackedRecords is ZooToken {
    uint256 public launchedAt;
    bool public launched;
    address public marketingWallet;
    uint256 public feeUpdatedAt;
    uint8 public feeLevel;
    address public treasury;

    constructor(string memory name_, string memory symbol_, uint256 supply, address marketing, address treasury_) {
        _initToken(name_, symbol_, 18, supply, msg.sender);
        launchedAt = block.timestamp;
        launched = true;
        marketingWallet = marketing;
        feeLevel = 3;
        treasury = treasury_;
    }
}
