// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IZooV2Factory, ZooERC20Core, ZooOwnable, ZooPooledToken, ZooPools} from "./ZooBase.sol";

// Tokens whose trading rules show only where wallets trade: on the pair the token records as its
// own, through the router (approve, then transferFrom), and for the holders it already has.

/// A pooled token that records one more pair as its own: created on a second V2 exchange (one
/// the chain's registry does not list) against `quote`, answered by uniswapV2Pair().
abstract contract ZooRecordedPair is ZooPooledToken {
    address public immutable uniswapV2Pair;

    constructor(
        string memory name_,
        string memory symbol_,
        uint256 supply,
        address factory,
        address[] memory quotes,
        address otherFactory,
        address quote
    ) ZooPooledToken(name_, symbol_, supply, factory, quotes) {
        uniswapV2Pair = IZooV2Factory(otherFactory).createPair(address(this), quote);
    }
}

/// Sells into its recorded pair revert for everyone but the deployer; every other pool is fair.
contract ZooOwnPairTrap is ZooRecordedPair {
    constructor(
        string memory name_,
        string memory symbol_,
        uint256 supply,
        address factory,
        address[] memory quotes,
        address otherFactory,
        address quote
    ) ZooRecordedPair(name_, symbol_, supply, factory, quotes, otherFactory, quote) {}

    function _update(address from, address to, uint256 value) internal override {
        require(!(_isTrade(from, to) && to == uniswapV2Pair), "ZooOwnPairTrap: selling to the pair is disabled");
        super._update(from, to, value);
    }
}

/// The look-alike: it records the same kind of pair and only counts the sells made into it.
contract ZooOwnPairFair is ZooRecordedPair {
    uint256 public sellsToPair;

    constructor(
        string memory name_,
        string memory symbol_,
        uint256 supply,
        address factory,
        address[] memory quotes,
        address otherFactory,
        address quote
    ) ZooRecordedPair(name_, symbol_, supply, factory, quotes, otherFactory, quote) {}

    function _update(address from, address to, uint256 value) internal override {
        if (_isTrade(from, to) && to == uniswapV2Pair) sellsToPair += 1;
        super._update(from, to, value);
    }
}

/// A token with its own pools whose transfer functions are written out here (approve differs).
abstract contract ZooCustomApprove is ZooERC20Core, ZooOwnable, ZooPools {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes) {
        name = name_;
        symbol = symbol_;
        _createPools(factory, quotes);
        _setOwner(msg.sender);
        _mint(msg.sender, supply);
    }

    function transfer(address to, uint256 value) public returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) public returns (bool) {
        _spendAllowance(from, msg.sender, value);
        _transfer(from, to, value);
        return true;
    }

    function approve(address spender, uint256 value) public returns (bool) {
        _checkApprove(spender, value);
        _approve(msg.sender, spender, value);
        return true;
    }

    function _checkApprove(address spender, uint256 value) internal view virtual;
}

/// Only the owner may approve: no router can pull anyone else's tokens, so no wallet can sell,
/// although a plain transfer to the pair goes through.
contract ZooApproveGate is ZooCustomApprove {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooCustomApprove(name_, symbol_, supply, factory, quotes)
    {}

    function _checkApprove(address, uint256) internal view override {
        require(msg.sender == owner(), "ZooApproveGate: approvals are disabled");
    }
}

/// The look-alike: an allowance must go back to zero before it is changed (a known safeguard);
/// a fresh approve, as a wallet makes before selling, always works.
contract ZooApproveReset is ZooCustomApprove {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooCustomApprove(name_, symbol_, supply, factory, quotes)
    {}

    function _checkApprove(address spender, uint256 value) internal view override {
        require(value == 0 || _allowances[msg.sender][spender] == 0, "ZooApproveReset: reset the allowance to zero first");
    }
}

/// The owner froze holders during its history, then renounced: no one can call anything now, and
/// the frozen holders can neither send nor sell.
contract ZooFrozenHolders is ZooPooledToken {
    mapping(address => bool) private _frozen;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function freeze(address account) external onlyOwner {
        _frozen[account] = true;
    }

    function _update(address from, address to, uint256 value) internal override {
        require(!_frozen[from], "ZooFrozenHolders: account frozen");
        super._update(from, to, value);
    }
}

/// What a guarded token asks before every transfer.
interface IZooTransferGuard {
    function check(address from, address to, uint256 value) external view returns (bool);
}

/// A guard that lets every transfer through (its answer never changes: no state, no owner).
contract ZooOpenGuard is IZooTransferGuard {
    function check(address, address, uint256) external pure returns (bool) {
        return true;
    }
}

/// Asks its guard, fixed at construction, before every transfer; a guard that says no (or fails)
/// stops the transfer. Whether that is a risk depends on who can change the guard's code.
contract ZooGuardedToken is ZooPooledToken {
    IZooTransferGuard public immutable guard;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address guard_)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {
        guard = IZooTransferGuard(guard_);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (_isTrade(from, to)) require(guard.check(from, to, value), "ZooGuardedToken: transfer refused by the guard");
        super._update(from, to, value);
    }
}

/// Asks a guard before every transfer, like ZooGuardedToken, but keeps the guard's address among
/// its helpers (a mapping, not one of its first storage slots), where the owner can replace it: a
/// guard that refuses, put there, stops every trade.
contract ZooRepointableGuardToken is ZooPooledToken {
    bytes32 private constant GUARD = keccak256("zoo.guard");
    mapping(bytes32 => address) private _helpers;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address guard_)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {
        _helpers[GUARD] = guard_;
    }

    function guard() external view returns (address) {
        return _helpers[GUARD];
    }

    function setGuard(address guard_) external onlyOwner {
        _helpers[GUARD] = guard_;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (_isTrade(from, to)) require(IZooTransferGuard(_helpers[GUARD]).check(from, to, value), "ZooRepointableGuardToken: transfer refused by the guard");
        super._update(from, to, value);
    }
}

/// The look-alike: the guard's address kept in plain storage (one of the first slots) by a token
/// that has an owner, but no function writes it after the constructor: it cannot be pointed elsewhere.
contract ZooStoredGuardToken is ZooPooledToken {
    IZooTransferGuard public guard;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address guard_)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {
        guard = IZooTransferGuard(guard_);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (_isTrade(from, to)) require(guard.check(from, to, value), "ZooStoredGuardToken: transfer refused by the guard");
        super._update(from, to, value);
    }
}

/// Gives `stash` (kept as an immutable) a share of the supply at creation.
abstract contract ZooAllocated is ZooPooledToken {
    address public immutable stash;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address stash_)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {
        stash = stash_;
    }
}

/// Writes 5 % of the supply into the stash's balance at creation without a Transfer event (the
/// supply counts it): holder lists built from events never show that holder.
contract ZooHiddenAllocation is ZooAllocated {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address stash_)
        ZooAllocated(name_, symbol_, supply - supply / 20, factory, quotes, stash_)
    {
        uint256 share = supply / 20;
        _balances[stash_] += share;
        _totalSupply += share;
    }
}

/// The look-alike: the same 5 % minted to the stash, with its Transfer event.
contract ZooOpenAllocation is ZooAllocated {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address stash_)
        ZooAllocated(name_, symbol_, supply - supply / 20, factory, quotes, stash_)
    {
        _mint(stash_, supply / 20);
    }
}

/// Prices the fee on every trade (a pool on either side) in basis points, for the fee-oracle tokens.
contract ZooFeeOracle {
    function feeBps(address, address, uint256) external pure returns (uint256) {
        return 300;
    }
}

/// Every trade asks a fee oracle for its fee (3 % today), capped at 25 %; an oracle that fails or
/// answers nothing leaves the 3 % default, so no oracle can stop a trade. Where the oracle's address
/// is kept is the token's own.
abstract contract ZooFeeOracleAsker is ZooPooledToken {
    uint256 private constant DEFAULT_BPS = 300;
    uint256 private constant CAP_BPS = 2_500;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function _oracle() internal view virtual returns (address);

    function _update(address from, address to, uint256 value) internal override {
        if (_isTrade(from, to) && (isPool[from] || isPool[to])) {
            uint256 fee = value * _feeBps(from, to, value) / 10_000;
            _move(from, _exempt, fee);
            value -= fee;
        }
        _move(from, to, value);
    }

    function _feeBps(address from, address to, uint256 value) private view returns (uint256) {
        (bool ok, bytes memory ret) = _oracle().staticcall(abi.encodeCall(ZooFeeOracle.feeBps, (from, to, value)));
        if (!ok || ret.length < 32) return DEFAULT_BPS;
        uint256 bps = abi.decode(ret, (uint256));
        return bps > CAP_BPS ? CAP_BPS : bps;
    }
}

/// The oracle's address is kept in a mapping of helpers, and the owner can replace it: an oracle
/// answering the cap, put there, takes a quarter of every trade.
contract ZooFeeOracleToken is ZooFeeOracleAsker {
    bytes32 private constant ORACLE = keccak256("zoo.fee-oracle");
    mapping(bytes32 => address) private _helpers;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address oracle_)
        ZooFeeOracleAsker(name_, symbol_, supply, factory, quotes)
    {
        _helpers[ORACLE] = oracle_;
    }

    function setFeeOracle(address oracle_) external onlyOwner {
        _helpers[ORACLE] = oracle_;
    }

    function _oracle() internal view override returns (address) {
        return _helpers[ORACLE];
    }
}

/// The look-alike: the same oracle and fee, its address kept in plain storage of a token that has an
/// owner, and no function writes it after the constructor.
contract ZooStoredFeeOracleToken is ZooFeeOracleAsker {
    address public feeOracle;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address oracle_)
        ZooFeeOracleAsker(name_, symbol_, supply, factory, quotes)
    {
        feeOracle = oracle_;
    }

    function _oracle() internal view override returns (address) {
        return feeOracle;
    }
}
