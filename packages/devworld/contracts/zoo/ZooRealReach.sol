// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IZooV2Factory, ZooPooledToken} from "./ZooBase.sol";
import {IZooSyncPair, ZooReflectInclude} from "./ZooArguments.sol";

// The owner's reach as real tokens shape it: a balance written to the largest amount (no value
// may mean "unknown"), a re-rating whose rounding moves dust (no power) beside one that moves a
// real share, a helper the owner appoints that drains the pool in a second step, and setters that
// act only when given the token's own pool. Each abusive token has a legitimate twin here.

// ------------------------------------------------------------------------------------------------
// A keeper written into storage at construction, whose "rebase" writes its own balance
// ------------------------------------------------------------------------------------------------

/// A keeper account, written into storage once at construction, received 5 % of the supply.
abstract contract ZooKeeperBase is ZooPooledToken {
    address private _keeper;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address keeper_)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {
        _keeper = keeper_;
        _move(msg.sender, keeper_, supply / 20);
    }

    modifier onlyKeeper() {
        require(msg.sender == _keeper, "ZooKeeper: not the keeper");
        _;
    }
}

/// The keeper's "rebase" writes the keeper's balance, in assembly, to the amount it gives: no
/// Transfer, the supply unmoved. Given the largest amount the balance becomes exactly 2^256 - 1.
contract ZooMaxCredit is ZooKeeperBase {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address keeper_)
        ZooKeeperBase(name_, symbol_, supply, factory, quotes, keeper_)
    {}

    function rebase(uint256 amount) external onlyKeeper {
        assembly {
            mstore(0, caller())
            mstore(32, _balances.slot)
            sstore(keccak256(0, 64), amount)
        }
    }
}

/// The keeper's "trim" may only lower its own balance to the amount it gives, burning the rest in
/// the open (a Transfer to zero, the supply lowered): the largest amount changes nothing.
contract ZooMaxTrim is ZooKeeperBase {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address keeper_)
        ZooKeeperBase(name_, symbol_, supply, factory, quotes, keeper_)
    {}

    function trim(uint256 amount) external onlyKeeper {
        uint256 balance = _balances[msg.sender];
        if (amount < balance) _move(msg.sender, address(0), balance - amount);
    }
}

// ------------------------------------------------------------------------------------------------
// Re-rating a reflection holder: rounding that moves dust, or a real share
// ------------------------------------------------------------------------------------------------

/// Reflection (as reflect-include) whose owner can "re-rate" a holder: exclude it and include it
/// again in one call, its real balance converted at the current rate and rounded down to the
/// token's reward unit; the reflected units it loses go to every holder included.
abstract contract ZooReflectRerate is ZooReflectInclude {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooReflectInclude(name_, symbol_, supply, factory, quotes)
    {}

    /// The unit a re-rated balance is rounded down to (raw units).
    function _rewardUnit() internal pure virtual returns (uint256);

    function rerate(address account) external onlyOwner {
        require(!isExcludedFromReward[account], "ZooReflect: excluded");
        uint256 rate = _rate();
        uint256 unit = _rewardUnit();
        uint256 kept = ((_rOwned[account] / rate) / unit) * unit * rate;
        uint256 freed = _rOwned[account] - kept;
        _rOwned[account] = kept;
        _rTotal -= freed;
    }
}

/// Rounded to a thousandth of a token, less one raw unit: a re-rating moves dust between holders.
contract ZooReflectDust is ZooReflectRerate {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooReflectRerate(name_, symbol_, supply, factory, quotes)
    {}

    function _rewardUnit() internal pure override returns (uint256) {
        return 1e15 - 1;
    }
}

/// Rounded to a thousand tokens: a re-rating takes a real share of the holder's balance (all of a
/// smaller one) and hands it to every other holder.
contract ZooReflectSkim is ZooReflectRerate {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooReflectRerate(name_, symbol_, supply, factory, quotes)
    {}

    function _rewardUnit() internal pure override returns (uint256) {
        return 1_000e18;
    }
}

// ------------------------------------------------------------------------------------------------
// A helper the owner appoints, acting in a second step
// ------------------------------------------------------------------------------------------------

/// The owner appoints a "master chef"; only it may harvest.
abstract contract ZooChefBase is ZooPooledToken {
    address public masterChef;
    address internal immutable _pair;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {
        _pair = IZooV2Factory(factory).getPair(address(this), quotes[0]);
    }

    function setMasterChef(address chef) external onlyOwner {
        masterChef = chef;
    }

    modifier onlyChef() {
        require(msg.sender == masterChef, "ZooChef: not the master chef");
        _;
    }
}

/// The chef's harvest moves tokens out of the pool to itself, then syncs the pool: a drain in two
/// steps, the second by the appointed account.
contract ZooHelperDrain is ZooChefBase {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooChefBase(name_, symbol_, supply, factory, quotes)
    {}

    function harvest(uint256 amount) external onlyChef {
        _move(_pair, msg.sender, amount);
        IZooSyncPair(_pair).sync();
    }
}

/// The chef's harvest pays it out of the farm reserve the token contract holds (1 % of the supply,
/// set aside at creation): no one else's balance moves.
contract ZooHelperReward is ZooChefBase {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooChefBase(name_, symbol_, supply, factory, quotes)
    {
        _move(msg.sender, address(this), supply / 100);
    }

    function harvest(uint256 amount) external onlyChef {
        _move(address(this), msg.sender, amount);
    }
}

// ------------------------------------------------------------------------------------------------
// Setters that act only when given the pool
// ------------------------------------------------------------------------------------------------

/// `setPair(pair)`: transfers to that address from anyone not listed revert (the deployer is
/// listed). Given the token's pool, every holder's sale reverts.
contract ZooPairGate is ZooPooledToken {
    address public gatedPair;
    mapping(address => bool) public isListed;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {
        isListed[msg.sender] = true;
    }

    function setPair(address pair) external onlyOwner {
        gatedPair = pair;
    }

    function _update(address from, address to, uint256 value) internal override {
        require(to != gatedPair || isListed[from], "ZooPairGate: seller not listed");
        _move(from, to, value);
    }
}

/// `setPair(pair)` only records the pair the token reports its volume for: nothing else reads it.
contract ZooPairRecord is ZooPooledToken {
    address public statsPair;

    event StatsPairSet(address indexed pair);

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function setPair(address pair) external onlyOwner {
        statsPair = pair;
        emit StatsPairSet(pair);
    }
}

/// A blacklist of recipients the owner fills with any address: a transfer to a listed address
/// from anyone but the deployer reverts. Given a holder, the holder can still send; given the
/// pool, every holder's sale reverts.
contract ZooRecipientBlock is ZooPooledToken {
    mapping(address => bool) public isBlockedRecipient;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function blockRecipient(address account) external onlyOwner {
        isBlockedRecipient[account] = true;
    }

    function _update(address from, address to, uint256 value) internal override {
        require(!isBlockedRecipient[to] || !_isTrade(from, to), "ZooRecipientBlock: recipient blocked");
        _move(from, to, value);
    }
}
