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

/// A pool whose state reads fail where a test says (bits of `hidden`: 1 getReserves, 2 totalSupply,
/// 4 slot0, 8 liquidity, 16 token0); what does not fail answers empty or as written. What the probe's
/// pool lens must carry as "not read", never as 0, beside a pool that answers 0.
contract UnreadablePool {
    address public immutable tokenA;
    address public immutable tokenB;
    uint256 public immutable hidden;
    uint112 public immutable reserve0;
    uint112 public immutable reserve1;

    constructor(address a, address b, uint256 hidden_, uint112 reserve0_, uint112 reserve1_) {
        (tokenA, tokenB) = a < b ? (a, b) : (b, a);
        hidden = hidden_;
        (reserve0, reserve1) = (reserve0_, reserve1_);
    }

    function token0() external view returns (address) {
        require(hidden & 16 == 0, "token0 hidden");
        return tokenA;
    }

    function getReserves() external view returns (uint112, uint112, uint32) {
        require(hidden & 1 == 0, "reserves hidden");
        return (reserve0, reserve1, 0);
    }

    function totalSupply() external view returns (uint256) {
        require(hidden & 2 == 0, "supply hidden");
        return 0;
    }

    function slot0() external view returns (uint160, int24, uint16, uint16, uint16, uint8, bool) {
        require(hidden & 4 == 0, "price hidden");
        return (uint160(1) << 96, 0, 0, 0, 0, 0, true);
    }

    function liquidity() external view returns (uint128) {
        require(hidden & 8 == 0, "liquidity hidden");
        return 1;
    }
}

/// A factory answering V2 getPair, V3 getPool and Solidly getPool with the pool it was given, and a
/// Solidly getFee that reverts.
contract UnreadablePoolFactory {
    address public immutable pool;

    constructor(address pool_) {
        pool = pool_;
    }

    function getPair(address, address) external view returns (address) {
        return pool;
    }

    function getPool(address, address, uint24) external view returns (address) {
        return pool;
    }

    function getPool(address, address, bool stable) external view returns (address) {
        return stable ? address(0) : pool;
    }

    function getFee(address, bool) external pure returns (uint256) {
        revert("fee hidden");
    }
}
