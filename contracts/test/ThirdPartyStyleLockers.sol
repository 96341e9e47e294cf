// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// Test lockers that answer the public read interfaces of two widely used third-party LP lockers,
/// so that tokenrisk's locker adapters are proven against the shapes those contracts return. The
/// lock logic is ours and minimal: take the tokens, record the lock, release it once.

/// The read interface of UNCX's V2 liquidity lockers: per LP token a count and an indexed list of
/// (lockDate, amount, initialAmount, unlockDate, lockID, owner); `amount` falls to 0 on withdrawal.
contract UncxStyleLocker {
    struct TokenLock {
        uint256 lockDate;
        uint256 amount;
        uint256 initialAmount;
        uint256 unlockDate;
        uint256 lockID;
        address owner;
    }

    mapping(address => TokenLock[]) public tokenLocks;

    function lockLPToken(address lpToken, uint256 amount, uint256 unlockDate) external {
        require(IERC20(lpToken).transferFrom(msg.sender, address(this), amount), "UncxStyleLocker: transfer failed");
        uint256 id = tokenLocks[lpToken].length;
        tokenLocks[lpToken].push(TokenLock(block.timestamp, amount, amount, unlockDate, id, msg.sender));
    }

    function withdraw(address lpToken, uint256 index) external {
        TokenLock storage entry = tokenLocks[lpToken][index];
        require(msg.sender == entry.owner && block.timestamp >= entry.unlockDate, "UncxStyleLocker: locked");
        uint256 amount = entry.amount;
        entry.amount = 0;
        require(IERC20(lpToken).transfer(entry.owner, amount), "UncxStyleLocker: transfer failed");
    }

    function getNumLocksForToken(address lpToken) external view returns (uint256) {
        return tokenLocks[lpToken].length;
    }
}

/// The read interface of PinkSale's PinkLock02: per token a count and a paged list of locks with a
/// vesting schedule (tgeDate is the unlock date of a plain lock; tgeBps/cycle/cycleBps describe
/// a vesting one) and the amount already unlocked.
contract PinkStyleLocker {
    struct Lock {
        uint256 id;
        address token;
        address owner;
        uint256 amount;
        uint256 lockDate;
        uint256 tgeDate;
        uint256 tgeBps;
        uint256 cycle;
        uint256 cycleBps;
        uint256 unlockedAmount;
        string description;
    }

    Lock[] private _all;
    mapping(address => uint256[]) private _byToken;

    function vestingLock(address token, uint256 amount, uint256 tgeDate, uint256 tgeBps, uint256 cycle, uint256 cycleBps, string calldata description)
        public
        returns (uint256 id)
    {
        require(IERC20(token).transferFrom(msg.sender, address(this), amount), "PinkStyleLocker: transfer failed");
        id = _all.length;
        _all.push(Lock(id, token, msg.sender, amount, block.timestamp, tgeDate, tgeBps, cycle, cycleBps, 0, description));
        _byToken[token].push(id);
    }

    function lock(address token, uint256 amount, uint256 unlockDate, string calldata description) external returns (uint256) {
        return vestingLock(token, amount, unlockDate, 0, 0, 0, description);
    }

    /// Releases the whole of a plain lock after its date (vesting releases are not modelled here).
    function unlock(uint256 id) external {
        Lock storage entry = _all[id];
        require(msg.sender == entry.owner && block.timestamp >= entry.tgeDate && entry.unlockedAmount == 0, "PinkStyleLocker: locked");
        entry.unlockedAmount = entry.amount;
        require(IERC20(entry.token).transfer(entry.owner, entry.amount), "PinkStyleLocker: transfer failed");
    }

    function totalLockCountForToken(address token) external view returns (uint256) {
        return _byToken[token].length;
    }

    function getLocksForToken(address token, uint256 start, uint256 end) external view returns (Lock[] memory out) {
        uint256[] storage ids = _byToken[token];
        if (end >= ids.length) end = ids.length - 1;
        out = new Lock[](end - start + 1);
        for (uint256 i = start; i <= end; i++) out[i - start] = _all[ids[i]];
    }
}

/// A plain ERC-20 for the locker tests: the whole supply minted to the deployer.
contract LockerTestToken is ERC20 {
    constructor(uint256 supply) ERC20("Locker Test Token", "LOCKT") {
        _mint(msg.sender, supply);
    }
}
