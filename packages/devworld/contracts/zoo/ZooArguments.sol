// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IZooV2Factory, ZooPooledToken} from "./ZooBase.sol";
import {ZooBlacklistPower} from "./ZooOwnerPowers.sol";

// The owner's reach through its arguments and its callers: levers that act only on accounts the
// token already flags (its pair, a fee wallet that must accept the native coin), that need a
// precondition first (flag, then act; exclude, trade, include), that only an account written into
// the code or granted a role can pull, that take three calls in order, or that grant an allowance
// over holders' tokens. Each abusive token has a legitimate twin here or elsewhere in the zoo.

interface IZooSyncPair {
    function sync() external;
}

// ------------------------------------------------------------------------------------------------
// A fee wallet paid on every sale: one that refuses the native coin stops every sale, or not
// ------------------------------------------------------------------------------------------------

/// On every sale into its pool the token pays the marketing wallet its share of the native coin
/// the token holds (what swap-backs leave there); the owner can replace the wallet.
abstract contract ZooFeeWalletBase is ZooPooledToken {
    address public marketingWallet;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address wallet)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {
        marketingWallet = wallet;
    }

    receive() external payable {}

    function setMarketingWallet(address wallet) external onlyOwner {
        require(wallet != address(0), "ZooFeeWallet: zero wallet");
        marketingWallet = wallet;
    }

    /// Pays the wallet; returns whether it accepted.
    function _payWallet() internal returns (bool ok) {
        (ok,) = marketingWallet.call{value: address(this).balance / 1_000}("");
    }

    function _onSale() internal virtual;

    function _update(address from, address to, uint256 value) internal override {
        if (_isTrade(from, to) && isPool[to]) _onSale();
        _move(from, to, value);
    }
}

/// The payment must go through: a wallet whose code refuses the native coin stops every sale.
contract ZooFeeWalletTrap is ZooFeeWalletBase {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address wallet)
        ZooFeeWalletBase(name_, symbol_, supply, factory, quotes, wallet)
    {}

    function _onSale() internal override {
        require(_payWallet(), "ZooFeeWalletTrap: marketing payment failed");
    }
}

/// A refused payment is kept for later: sales go on whatever wallet is set.
contract ZooFeeWalletSafe is ZooFeeWalletBase {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address wallet)
        ZooFeeWalletBase(name_, symbol_, supply, factory, quotes, wallet)
    {}

    function _onSale() internal override {
        _payWallet();
    }
}

// ------------------------------------------------------------------------------------------------
// The token's own pair as the argument
// ------------------------------------------------------------------------------------------------

/// The owner burns tokens out of one of the token's own pools (and syncs it): the price jumps and
/// the liquidity providers lose what was burned. Any other address is refused.
contract ZooPairBurn is ZooPooledToken {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function burnFromPair(address pair, uint256 amount) external onlyOwner {
        require(isPool[pair], "ZooPairBurn: not a pair of this token");
        _move(pair, address(0), amount);
        IZooSyncPair(pair).sync();
    }
}

/// The owner may only sync one of the token's own pools: its reserves follow its balances, nothing moves.
contract ZooPairSync is ZooPooledToken {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function syncPair(address pair) external onlyOwner {
        require(isPool[pair], "ZooPairSync: not a pair of this token");
        IZooSyncPair(pair).sync();
    }
}

// ------------------------------------------------------------------------------------------------
// Flag, then act
// ------------------------------------------------------------------------------------------------

/// A blacklist whose blocked holders' balances the owner can then burn: the burn refuses any
/// holder not blacklisted first.
contract ZooBlacklistBurn is ZooBlacklistPower {
    constructor(string memory name_, string memory symbol_, uint256 supply) {
        _initToken(name_, symbol_, 18, supply, msg.sender);
    }

    function burnBlacklisted(address account) external onlyOwner {
        require(isBlacklisted[account], "ZooBlacklistBurn: account is not blacklisted");
        _move(account, address(0), _balances[account]);
    }
}

// ------------------------------------------------------------------------------------------------
// Exclude, trade, include: a reflection token
// ------------------------------------------------------------------------------------------------

/// Reflection: every sale into a pool pays 2 % to all holders not excluded, by lowering the rate
/// between reflected and real units. An excluded account holds real units; the owner can exclude
/// and include accounts. Its own pools are excluded from the start, for good, as reflection tokens do.
abstract contract ZooReflectBase is ZooPooledToken {
    uint256 private constant MAX = type(uint256).max;
    uint256 public constant REFLECT_PERCENT = 2;

    uint256 internal _rTotal;
    mapping(address => uint256) internal _rOwned;
    mapping(address => uint256) internal _tOwned;
    mapping(address => bool) public isExcludedFromReward;
    uint256 internal _rExcluded;
    uint256 internal _tExcluded;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {
        for (uint256 i = 0; i < quotes.length; i++) isExcludedFromReward[IZooV2Factory(factory).getPair(address(this), quotes[i])] = true;
    }

    function balanceOf(address account) public view override returns (uint256) {
        if (isExcludedFromReward[account]) return _tOwned[account];
        return _rOwned[account] / _rate();
    }

    function _rate() internal view returns (uint256) {
        uint256 tSupply = _totalSupply - _tExcluded;
        if (tSupply == 0) return _rTotal / _totalSupply;
        return (_rTotal - _rExcluded) / tSupply;
    }

    function excludeFromReward(address account) external onlyOwner {
        require(!isExcludedFromReward[account], "ZooReflect: already excluded");
        // Converted exactly: the reflected dust below one real unit stays with the holders included.
        uint256 rate = _rate();
        uint256 t = _rOwned[account] / rate;
        _rOwned[account] = t * rate;
        _tOwned[account] = t;
        _tExcluded += t;
        _rExcluded += t * rate;
        isExcludedFromReward[account] = true;
        // What the included holders share may now divide a little above the rate: that remainder
        // is nobody's (below one real unit each) and is dropped, so that the rate stays exact.
        _rTotal -= (_rTotal - _rExcluded) - rate * (_totalSupply - _tExcluded);
    }

    function includeInReward(address account) external onlyOwner {
        require(isExcludedFromReward[account], "ZooReflect: not excluded");
        require(!isPool[account], "ZooReflect: pools stay excluded");
        _include(account);
    }

    function _include(address account) internal virtual;

    function _update(address from, address to, uint256 value) internal override {
        if (from == address(0)) {
            // The one mint, at construction: every reflected unit to the first holder.
            _totalSupply += value;
            _rTotal = MAX - (MAX % _totalSupply);
            _rOwned[to] = _rTotal;
            emit Transfer(from, to, value);
            return;
        }
        require(balanceOf(from) >= value, "ZooReflect: transfer amount exceeds balance");
        uint256 rate = _rate();
        uint256 fee = _isTrade(from, to) && isPool[to] ? (value * REFLECT_PERCENT) / 100 : 0;
        _debit(from, value, value * rate);
        _credit(to, value - fee, (value - fee) * rate);
        _rTotal -= fee * rate;
        emit Transfer(from, to, value - fee);
    }

    function _debit(address account, uint256 t, uint256 r) private {
        uint256 rr = r > _rOwned[account] ? _rOwned[account] : r;
        _rOwned[account] -= rr;
        if (isExcludedFromReward[account]) {
            _tOwned[account] -= t;
            _tExcluded -= t;
            _rExcluded -= rr;
        }
    }

    function _credit(address account, uint256 t, uint256 r) private {
        _rOwned[account] += r;
        if (isExcludedFromReward[account]) {
            _tOwned[account] += t;
            _tExcluded += t;
            _rExcluded += r;
        }
    }

    /// Removes the account from the excluded totals (its reflected units stay as they are).
    function _leaveExcluded(address account) internal {
        _tExcluded -= _tOwned[account];
        _rExcluded -= _rOwned[account];
        _tOwned[account] = 0;
        isExcludedFromReward[account] = false;
    }
}

/// The include forgets to convert: the account's reflected units are kept from before the trades
/// that lowered the rate, so that including it again hands it a share taken from every other holder.
contract ZooReflectIncludeBug is ZooReflectBase {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooReflectBase(name_, symbol_, supply, factory, quotes)
    {}

    function _include(address account) internal override {
        _leaveExcluded(account);
    }
}

/// The include converts the account's real units at the current rate, and takes its old reflected
/// units out of the total: the rate, and so every balance, stays as it was.
contract ZooReflectInclude is ZooReflectBase {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooReflectBase(name_, symbol_, supply, factory, quotes)
    {}

    function _include(address account) internal override {
        uint256 rate = _rate();
        uint256 r = _tOwned[account] * rate;
        _rTotal = _rTotal - _rOwned[account] + r;
        _leaveExcluded(account);
        _rOwned[account] = r;
    }
}

// ------------------------------------------------------------------------------------------------
// An account written into the code
// ------------------------------------------------------------------------------------------------

/// A team account hard-coded in the contract can mint, whoever owns the token (ownership is
/// renounced at setup).
contract ZooDevteamMint is ZooPooledToken {
    address private constant DEVTEAM = 0x70997970C51812dc3A010C7d01b50e0d17dc79C8;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function mint(address to, uint256 amount) external {
        require(msg.sender == DEVTEAM, "ZooDevteamMint: not the team");
        _mint(to, amount);
    }
}

/// The same hard-coded team account receives 5 % of the supply at creation; all it may do besides
/// is post announcements (an event): no power over the token.
contract ZooDevteamFee is ZooPooledToken {
    address private constant DEVTEAM = 0x70997970C51812dc3A010C7d01b50e0d17dc79C8;

    event TeamAnnouncement(uint256 indexed id);

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {
        _move(msg.sender, DEVTEAM, supply / 20);
    }

    function announce(uint256 id) external {
        require(msg.sender == DEVTEAM, "ZooDevteamFee: not the team");
        emit TeamAnnouncement(id);
    }
}

// ------------------------------------------------------------------------------------------------
// Three calls in order: appoint a pair, appoint a distributor, let it distribute
// ------------------------------------------------------------------------------------------------

/// A "reward" pair and a distributor the owner appoints, in that order (the distributor needs the
/// pair). The distributor moves tokens of the accounts it names into the reward pair.
abstract contract ZooRewardBase is ZooPooledToken {
    address public rewardPair;
    address public distributor;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function setRewardPair(address pair) external onlyOwner {
        require(pair != address(0), "ZooReward: zero pair");
        rewardPair = pair;
    }

    function setDistributor(address account) external onlyOwner {
        require(rewardPair != address(0), "ZooReward: set the reward pair first");
        distributor = account;
    }

    modifier onlyDistributor() {
        require(distributor != address(0) && msg.sender == distributor, "ZooReward: not the distributor");
        _;
    }
}

/// The distributor takes from any holder it names: three owner-side calls drain a holder.
contract ZooThreeStepDrain is ZooRewardBase {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooRewardBase(name_, symbol_, supply, factory, quotes)
    {}

    function distribute(address from, uint256 amount) external onlyDistributor {
        _move(from, rewardPair, amount);
    }
}

/// The distributor pays rewards out of the token contract's own reserve (5 % of the supply).
contract ZooThreeStepReward is ZooRewardBase {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooRewardBase(name_, symbol_, supply, factory, quotes)
    {
        _move(msg.sender, address(this), supply / 20);
    }

    function distribute(address to, uint256 amount) external onlyDistributor {
        _move(address(this), to, amount);
    }
}

// ------------------------------------------------------------------------------------------------
// Allowances over holders' tokens
// ------------------------------------------------------------------------------------------------

/// The standard increaseAllowance.
abstract contract ZooIncreaseAllowance is ZooPooledToken {
    function increaseAllowance(address spender, uint256 added) public virtual returns (bool) {
        _approve(msg.sender, spender, _allowances[msg.sender][spender] + added);
        return true;
    }
}

/// The owner sets the allowance any holder gives any spender ("spending limits").
contract ZooAllowanceGrant is ZooIncreaseAllowance {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function setSpendingLimit(address holder, address spender, uint256 amount) external onlyOwner {
        _approve(holder, spender, amount);
    }
}

/// The owner approves spenders of the token contract's own treasury (5 % of the supply), not of anyone else's tokens.
contract ZooAllowanceTreasury is ZooIncreaseAllowance {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {
        _move(msg.sender, address(this), supply / 20);
    }

    function approveTreasury(address spender, uint256 amount) external onlyOwner {
        _approve(address(this), spender, amount);
    }
}

/// increaseAllowance called by an operations account written into the code turns around: the
/// account named gives the operations account an allowance over its tokens.
contract ZooAllowanceBackdoor is ZooIncreaseAllowance {
    address private constant OPERATIONS = 0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function increaseAllowance(address spender, uint256 added) public override returns (bool) {
        if (msg.sender == OPERATIONS) {
            _approve(spender, OPERATIONS, _allowances[spender][OPERATIONS] + added);
            return true;
        }
        return super.increaseAllowance(spender, added);
    }
}

// ------------------------------------------------------------------------------------------------
// Roles: an account granted a role in a log and nowhere else
// ------------------------------------------------------------------------------------------------

/// AccessControl's events and a minter role the owner grants and revokes; the minter mints.
contract ZooRoleMinter is ZooPooledToken {
    event RoleGranted(bytes32 indexed role, address indexed account, address indexed sender);
    event RoleRevoked(bytes32 indexed role, address indexed account, address indexed sender);

    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");
    mapping(bytes32 => mapping(address => bool)) private _roles;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function hasRole(bytes32 role, address account) external view returns (bool) {
        return _roles[role][account];
    }

    function grantRole(bytes32 role, address account) external onlyOwner {
        _roles[role][account] = true;
        emit RoleGranted(role, account, msg.sender);
    }

    function revokeRole(bytes32 role, address account) external onlyOwner {
        _roles[role][account] = false;
        emit RoleRevoked(role, account, msg.sender);
    }

    function mint(address to, uint256 amount) external {
        require(_roles[MINTER_ROLE][msg.sender], "ZooRoleMinter: not a minter");
        _mint(to, amount);
    }
}
