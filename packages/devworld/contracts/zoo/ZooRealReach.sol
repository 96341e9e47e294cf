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
    address internal _keeper;

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

/// The keeper's setHolderFee(holder, percent) sets the fee one holder pays on its sales, paid to
/// the keeper; above 100 the holder's sales revert. A per-holder tax and a blacklist, in a keeper's hands.
contract ZooKeeperHolderFee is ZooKeeperBase {
    mapping(address => uint256) public holderFee;
    address private immutable _feeTo;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address keeper_)
        ZooKeeperBase(name_, symbol_, supply, factory, quotes, keeper_)
    {
        _feeTo = keeper_;
    }

    function setHolderFee(address holder, uint256 percent) external onlyKeeper {
        holderFee[holder] = percent;
    }

    function _update(address from, address to, uint256 value) internal override {
        uint256 fee = _isTrade(from, to) && isPool[to] ? (value * holderFee[from]) / 100 : 0;
        require(fee <= value, "ZooKeeperHolderFee: fee above the sale");
        if (fee > 0) _move(from, _feeTo, fee);
        _move(from, to, value - fee);
    }
}

/// The keeper's setHolderFee(holder, percent) may only lower the keeper's own fee on its sales
/// (the holder it names is recorded, nothing else): no one else pays anything.
contract ZooKeeperOwnFee is ZooKeeperBase {
    uint256 public keeperFee = 1;

    event HolderNamed(address indexed holder);

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address keeper_)
        ZooKeeperBase(name_, symbol_, supply, factory, quotes, keeper_)
    {}

    function setHolderFee(address holder, uint256 percent) external onlyKeeper {
        if (percent < keeperFee) keeperFee = percent;
        emit HolderNamed(holder);
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

// ------------------------------------------------------------------------------------------------
// A balance shown a hundred times over: the display changes, nothing is taken
// ------------------------------------------------------------------------------------------------

/// While the boost is on (the owner turns it on), balanceOf() shows every holder but the pools and
/// the deployer a hundred times what it holds; transfers move what is held. setBoost(false) shows
/// every balance as held: the balances shown fall by 99 %, nothing moves, and each holder can send
/// what it could.
contract ZooDisplayHundred is ZooPooledToken {
    bool public boost;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function balanceOf(address account) public view override returns (uint256) {
        uint256 held = _balances[account];
        return boost && !isPool[account] && account != _exempt ? held * 100 : held;
    }

    function setBoost(bool on) external onlyOwner {
        boost = on;
    }
}

// ------------------------------------------------------------------------------------------------
// An account written into the code at construction, crediting balances under a harmless name
// ------------------------------------------------------------------------------------------------

/// A liquidity manager, written into the code at construction (an immutable), received 5 % of the
/// supply.
abstract contract ZooManagerBase is ZooPooledToken {
    address internal immutable _manager;
    address internal immutable _mainPair;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address manager_)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {
        _manager = manager_;
        _mainPair = IZooV2Factory(factory).getPair(address(this), quotes[0]);
        _move(msg.sender, manager_, supply / 20);
    }

    modifier onlyManager() {
        require(msg.sender == _manager, "ZooManager: not the manager");
        _;
    }
}

/// The manager's addLiquidity(account, amount) writes `amount` more into the account's balance:
/// no Transfer, the supply unmoved. A mint under a harmless name.
contract ZooHiddenCredit is ZooManagerBase {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address manager_)
        ZooManagerBase(name_, symbol_, supply, factory, quotes, manager_)
    {}

    function addLiquidity(address account, uint256 amount) external onlyManager {
        _balances[account] += amount;
    }
}

/// The manager's addLiquidity(account, amount) moves `amount` of its own tokens to the pool and
/// syncs it (the account is recorded in an event): no one else's balance moves.
contract ZooHiddenLiquidity is ZooManagerBase {
    event LiquidityAdded(address indexed account, uint256 amount);

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address manager_)
        ZooManagerBase(name_, symbol_, supply, factory, quotes, manager_)
    {}

    function addLiquidity(address account, uint256 amount) external onlyManager {
        _move(msg.sender, _mainPair, amount);
        IZooSyncPair(_mainPair).sync();
        emit LiquidityAdded(account, amount);
    }
}

// ------------------------------------------------------------------------------------------------
// An exact-amount rule a keeper written into storage sets: every other sale reverts
// ------------------------------------------------------------------------------------------------

/// The keeper's setSellAmount(amount) sets the one amount a sale into a pool may be: any other
/// sale, from anyone but the keeper and the deployer, reverts; 0 lifts the rule. Set to an amount
/// no holder sells (a few raw units, more than the supply), no sale goes through.
contract ZooKeeperExactSell is ZooKeeperBase {
    uint256 public exactSell;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address keeper_)
        ZooKeeperBase(name_, symbol_, supply, factory, quotes, keeper_)
    {}

    function setSellAmount(uint256 amount) external onlyKeeper {
        exactSell = amount;
    }

    function _update(address from, address to, uint256 value) internal override {
        bool ruled = exactSell != 0 && isPool[to] && _isTrade(from, to) && from != _keeper;
        require(!ruled || value == exactSell, "ZooKeeperExactSell: not the amount");
        _move(from, to, value);
    }
}

/// The keeper's setSellAmount(amount) sets the one amount the keeper's own sales may be (its
/// tokens released in fixed slices): no one else's sale is ruled.
contract ZooKeeperOwnSell is ZooKeeperBase {
    uint256 public keeperSlice;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address keeper_)
        ZooKeeperBase(name_, symbol_, supply, factory, quotes, keeper_)
    {}

    function setSellAmount(uint256 amount) external onlyKeeper {
        keeperSlice = amount;
    }

    function _update(address from, address to, uint256 value) internal override {
        bool ruled = keeperSlice != 0 && isPool[to] && from == _keeper;
        require(!ruled || value == keeperSlice, "ZooKeeperOwnSell: not the slice");
        _move(from, to, value);
    }
}

// ------------------------------------------------------------------------------------------------
// A setter whose power shows only when its second address is the pool
// ------------------------------------------------------------------------------------------------

/// `setRoute(router, pair)`: when `pair` is one of the token's pools, sales into it from anyone
/// not listed (only the deployer is) revert. Given the pool as the router, or a holder as the
/// pair, nothing shows.
contract ZooRouteGate is ZooPooledToken {
    address public router;
    address public routePair;
    mapping(address => bool) public isListed;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {
        isListed[msg.sender] = true;
    }

    function setRoute(address router_, address pair) external onlyOwner {
        router = router_;
        routePair = pair;
    }

    function _update(address from, address to, uint256 value) internal override {
        require(to != routePair || !isPool[to] || isListed[from], "ZooRouteGate: seller not listed");
        _move(from, to, value);
    }
}

/// `setRoute(router, pair)` only records the router and the pair the token reports its volume
/// for (an event): given the pool in either place, nothing changes.
contract ZooRouteRecord is ZooPooledToken {
    address public router;
    address public routePair;

    event RouteSet(address indexed router, address indexed pair);

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function setRoute(address router_, address pair) external onlyOwner {
        router = router_;
        routePair = pair;
        emit RouteSet(router_, pair);
    }
}

// ------------------------------------------------------------------------------------------------
// A multiplier of the balance shown, beside a multiplier that really credits
// ------------------------------------------------------------------------------------------------

/// The owner's setMultiplier(n), 1 to 1 000: balanceOf() shows every holder but the pools and the
/// deployer n times what it holds; transfers move what is held. Nothing is created, nothing taken.
contract ZooDisplayMultiplier is ZooPooledToken {
    uint256 public multiplier = 1;
    uint256 private constant MAX_MULTIPLIER = 1_000;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function balanceOf(address account) public view override returns (uint256) {
        uint256 held = _balances[account];
        return isPool[account] || account == _exempt ? held : held * multiplier;
    }

    function setMultiplier(uint256 n) external onlyOwner {
        require(n >= 1 && n <= MAX_MULTIPLIER, "ZooDisplayMultiplier: out of range");
        multiplier = n;
    }
}

/// The owner's setMultiplier(n), 1 to 1 000: the owner is credited, in the open, n - 1 hundredths
/// of the supply (a Transfer from zero, the supply raised): a mint under a display's name.
contract ZooMultiplierCredit is ZooPooledToken {
    uint256 private constant MAX_MULTIPLIER = 1_000;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function setMultiplier(uint256 n) external onlyOwner {
        require(n >= 1 && n <= MAX_MULTIPLIER, "ZooMultiplierCredit: out of range");
        _mint(msg.sender, (totalSupply() / 100) * (n - 1));
    }
}

// ------------------------------------------------------------------------------------------------
// The hidden manager's credit, with a third argument
// ------------------------------------------------------------------------------------------------

/// The manager's addLiquidity(account, amount, lock) writes `amount` more into the account's
/// balance, whatever `lock` says: no Transfer, the supply unmoved. A mint under a harmless name.
contract ZooHiddenCreditFlag is ZooManagerBase {
    mapping(address => bool) public locked;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address manager_)
        ZooManagerBase(name_, symbol_, supply, factory, quotes, manager_)
    {}

    function addLiquidity(address account, uint256 amount, bool lock) external onlyManager {
        _balances[account] += amount;
        locked[account] = lock;
    }
}

/// The manager's addLiquidity(account, amount, lock) moves `amount` of its own tokens to the pool
/// and syncs it (the account and the flag are recorded in an event): no one else's balance moves.
contract ZooHiddenLiquidityFlag is ZooManagerBase {
    event LiquidityAdded(address indexed account, uint256 amount, bool lock);

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address manager_)
        ZooManagerBase(name_, symbol_, supply, factory, quotes, manager_)
    {}

    function addLiquidity(address account, uint256 amount, bool lock) external onlyManager {
        _move(msg.sender, _mainPair, amount);
        IZooSyncPair(_mainPair).sync();
        emit LiquidityAdded(account, amount, lock);
    }
}
