// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// tokenrisk's timelock for LP tokens (or any ERC-20): each lock belongs to the address that made
/// it and can be withdrawn by that address alone, once, at or after its unlock time. Locks are
/// listed per token; withdrawn locks stay listed with `withdrawn` set.
contract LpLocker {
    using SafeERC20 for IERC20;

    struct Lock {
        address owner;
        uint256 amount;
        uint256 unlockTime;
        bool withdrawn;
    }

    mapping(address => Lock[]) private _locks;

    event Locked(address indexed token, address indexed owner, uint256 indexed index, uint256 amount, uint256 unlockTime);
    event Withdrawn(address indexed token, address indexed owner, uint256 indexed index, uint256 amount);

    /// Takes `amount` of `token` from the caller (who must have approved it) until `unlockTime`.
    /// The lock records what actually arrived.
    function lock(address token, uint256 amount, uint256 unlockTime) external returns (uint256 index) {
        require(amount > 0, "LpLocker: nothing to lock");
        require(unlockTime > block.timestamp, "LpLocker: unlock time must be in the future");
        uint256 before = IERC20(token).balanceOf(address(this));
        IERC20(token).safeTransferFrom(msg.sender, address(this), amount);
        uint256 received = IERC20(token).balanceOf(address(this)) - before;
        index = _locks[token].length;
        _locks[token].push(Lock({owner: msg.sender, amount: received, unlockTime: unlockTime, withdrawn: false}));
        emit Locked(token, msg.sender, index, received, unlockTime);
    }

    /// Returns a lock's tokens to its owner, after its unlock time.
    function withdraw(address token, uint256 index) external {
        require(index < _locks[token].length, "LpLocker: no such lock");
        Lock storage entry = _locks[token][index];
        require(msg.sender == entry.owner, "LpLocker: not the owner of the lock");
        require(block.timestamp >= entry.unlockTime, "LpLocker: still locked");
        require(!entry.withdrawn, "LpLocker: already withdrawn");
        entry.withdrawn = true;
        IERC20(token).safeTransfer(entry.owner, entry.amount);
        emit Withdrawn(token, entry.owner, index, entry.amount);
    }

    function lockCount(address token) external view returns (uint256) {
        return _locks[token].length;
    }

    function lockAt(address token, uint256 index)
        external
        view
        returns (address owner, uint256 amount, uint256 unlockTime, bool withdrawn)
    {
        require(index < _locks[token].length, "LpLocker: no such lock");
        Lock storage entry = _locks[token][index];
        return (entry.owner, entry.amount, entry.unlockTime, entry.withdrawn);
    }
}
