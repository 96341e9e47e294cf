// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ZooToken} from "./ZooBase.sol";

/// A Uniswap V4 pool key as the PoolManager names a pool (its Currency and IHooks are addresses).
struct ZooV4PoolKey {
    address currency0;
    address currency1;
    uint24 fee;
    int24 tickSpacing;
    address hooks;
}

/// The clean token keeping the key of a Uniswap V4 pool of it in its storage, as launchpads' tokens
/// record the pool they graduated to: its owner writes the key once, after the pool is created, and
/// no transfer reads it. The key is the owner's word only: the key of the token's pool, or a
/// look-alike of a pool that was never created.
contract ZooStoredPoolKey is ZooToken {
    ZooV4PoolKey public poolKey;

    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 supply) {
        _initToken(name_, symbol_, decimals_, supply, msg.sender);
    }

    /// Records the key, once.
    function recordPoolKey(ZooV4PoolKey calldata key) external onlyOwner {
        require(poolKey.currency1 == address(0), "ZooStoredPoolKey: the key is recorded");
        poolKey = key;
    }
}
