// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ZooInitializable, ZooToken} from "./ZooBase.sol";

/// The clean twin: a standard ERC-20 with an owner who holds no power over the token. The whole
/// supply is minted once, to the deployer, in the constructor.
contract ZooClean is ZooToken {
    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 supply) {
        _initToken(name_, symbol_, decimals_, supply, msg.sender);
    }
}

/// The clean token as the logic of EIP-1167 clones: the same code, set up by `initialize`
/// (once) instead of a constructor. The implementation itself is locked at deployment.
contract ZooCleanInitializable is ZooToken, ZooInitializable {
    function initialize(string memory name_, string memory symbol_, uint8 decimals_, uint256 supply, address holder)
        external
        initializer
    {
        _initToken(name_, symbol_, decimals_, supply, holder);
    }
}
