// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Uniswap V4 hooks of the zoo, each with its legitimate look-alike. A hook runs on every swap of
// its pool; the world deploys each at an address whose low bits carry its permissions
// (beforeSwap = 1 << 7, afterSwap = 1 << 6, beforeSwapReturnDelta = 1 << 3,
// afterSwapReturnDelta = 1 << 2), as the PoolManager requires.

// A beforeSwap answer's LP fee with this bit set overrides a dynamic-fee pool's fee (LPFeeLibrary.OVERRIDE_FEE_FLAG).
uint24 constant ZOO_OVERRIDE_FEE_FLAG = 0x400000;
// The largest LP fee the PoolManager takes: 100 %, in hundredths of a basis point (LPFeeLibrary.MAX_LP_FEE).
uint24 constant ZOO_MAX_LP_FEE = 1_000_000;

/// The PoolManager's types, as its ABI has them (Currency and IHooks are addresses).
struct ZooPoolKey {
    address currency0;
    address currency1;
    uint24 fee;
    int24 tickSpacing;
    address hooks;
}

struct ZooSwapParams {
    bool zeroForOne;
    int256 amountSpecified;
    uint160 sqrtPriceLimitX96;
}

interface IZooPoolManager {
    function take(address currency, address to, uint256 amount) external;
}

/// What every zoo hook shares: the PoolManager it answers, the token whose sells it watches.
abstract contract ZooHookBase {
    address public immutable poolManager;
    address public immutable token;

    constructor(address poolManager_, address token_) {
        poolManager = poolManager_;
        token = token_;
    }

    /// IHooks.beforeSwap: (selector, BeforeSwapDelta as int256 (specified << 128 | unspecified), LP fee override).
    function beforeSwap(address sender, ZooPoolKey calldata key, ZooSwapParams calldata params, bytes calldata)
        external
        returns (bytes4, int256, uint24)
    {
        require(msg.sender == poolManager, "ZooHook: only the pool manager");
        int128 specified = _beforeSwap(sender, key, params);
        return (this.beforeSwap.selector, int256(specified) << 128, _lpFee());
    }

    /// The LP fee of this swap in a dynamic-fee pool (with the override flag), or 0: the pool's own.
    function _lpFee() internal view virtual returns (uint24) {
        return 0;
    }

    /// A sell: the token is what goes into the pool.
    function _isSell(ZooPoolKey calldata key, ZooSwapParams calldata params) internal view returns (bool) {
        return params.zeroForOne ? key.currency0 == token : key.currency1 == token;
    }

    function _beforeSwap(address sender, ZooPoolKey calldata key, ZooSwapParams calldata params) internal virtual returns (int128);
}

/// Refuses every sell but those of the routers its owner lists: a honeypot in the hook.
contract ZooHookSellGate is ZooHookBase {
    address public owner;
    mapping(address => bool) public listed;

    constructor(address poolManager_, address token_) ZooHookBase(poolManager_, token_) {
        owner = msg.sender;
    }

    function setListed(address account, bool value) external {
        require(msg.sender == owner, "ZooHookSellGate: not the owner");
        listed[account] = value;
    }

    function _beforeSwap(address sender, ZooPoolKey calldata key, ZooSwapParams calldata params) internal view override returns (int128) {
        if (_isSell(key, params) && !listed[sender]) revert("ZooHookSellGate: sells are closed");
        return 0;
    }
}

/// Its twin: counts the swaps of its pool (an oracle's bookkeeping) and refuses nothing.
contract ZooHookCounter is ZooHookBase {
    uint256 public swaps;

    constructor(address poolManager_, address token_) ZooHookBase(poolManager_, token_) {}

    function _beforeSwap(address, ZooPoolKey calldata, ZooSwapParams calldata) internal override returns (int128) {
        swaps += 1;
        return 0;
    }
}

/// Takes a share of every exact-input sell of the token through its returned delta: the share is
/// taken from the tokens sold before they reach the pool, and paid to `recipient`.
abstract contract ZooHookSellFee is ZooHookBase {
    function _feeBps() internal view virtual returns (uint256);
    function _recipient() internal view virtual returns (address);

    function _beforeSwap(address, ZooPoolKey calldata key, ZooSwapParams calldata params) internal override returns (int128) {
        if (!_isSell(key, params) || params.amountSpecified >= 0) return 0;
        uint256 fee = uint256(-params.amountSpecified) * _feeBps() / 10_000;
        if (fee == 0) return 0;
        IZooPoolManager(poolManager).take(token, _recipient(), fee);
        return int128(int256(fee));
    }
}

/// 10 % of every sell to its owner.
contract ZooHookSellTax is ZooHookSellFee {
    address public owner;

    constructor(address poolManager_, address token_) ZooHookBase(poolManager_, token_) {
        owner = msg.sender;
    }

    function _feeBps() internal pure override returns (uint256) {
        return 1_000;
    }

    function _recipient() internal view override returns (address) {
        return owner;
    }
}

/// Its twin: a fixed, immutable 0.3 % of every sell to a recipient set at deployment, no owner.
contract ZooHookFixedFee is ZooHookSellFee {
    uint256 public constant FEE_BPS = 30;
    address public immutable recipient;

    constructor(address poolManager_, address token_, address recipient_) ZooHookBase(poolManager_, token_) {
        recipient = recipient_;
    }

    function _feeBps() internal pure override returns (uint256) {
        return FEE_BPS;
    }

    function _recipient() internal view override returns (address) {
        return recipient;
    }
}

/// A dynamic-fee pool's hook whose owner sets the LP fee of every swap, up to the PoolManager's
/// 100 %: at 0.3 % when deployed, a sale can be made to pay everything it sells to the pool.
contract ZooHookOwnedFee is ZooHookBase {
    uint24 public constant START_FEE = 3_000;
    address public owner;
    uint24 public fee = START_FEE;

    constructor(address poolManager_, address token_, address owner_) ZooHookBase(poolManager_, token_) {
        owner = owner_;
    }

    function setFee(uint24 fee_) external {
        require(msg.sender == owner, "ZooHookOwnedFee: not the owner");
        require(fee_ <= ZOO_MAX_LP_FEE, "ZooHookOwnedFee: above 100 %");
        fee = fee_;
    }

    function _lpFee() internal view override returns (uint24) {
        return fee | ZOO_OVERRIDE_FEE_FLAG;
    }

    function _beforeSwap(address, ZooPoolKey calldata, ZooSwapParams calldata) internal pure override returns (int128) {
        return 0;
    }
}

/// Its twin: a dynamic-fee pool's hook whose code holds the LP fee at 0.3 %, with no owner and
/// no function to change it.
contract ZooHookSteadyFee is ZooHookBase {
    uint24 public constant FEE = 3_000;

    constructor(address poolManager_, address token_) ZooHookBase(poolManager_, token_) {}

    function _lpFee() internal pure override returns (uint24) {
        return FEE | ZOO_OVERRIDE_FEE_FLAG;
    }

    function _beforeSwap(address, ZooPoolKey calldata, ZooSwapParams calldata) internal pure override returns (int128) {
        return 0;
    }
}

/// A hook whose owner can pause its pool: every swap then reverts.
contract ZooHookPausable is ZooHookBase {
    address public owner;
    bool public paused;

    constructor(address poolManager_, address token_, address owner_) ZooHookBase(poolManager_, token_) {
        owner = owner_;
    }

    function setPaused(bool paused_) external {
        require(msg.sender == owner, "ZooHookPausable: not the owner");
        paused = paused_;
    }

    function _beforeSwap(address, ZooPoolKey calldata, ZooSwapParams calldata) internal view override returns (int128) {
        require(!paused, "ZooHookPausable: trading is paused");
        return 0;
    }
}

/// After a swap: what a hook answers through afterSwap (the unspecified currency's share it keeps).
abstract contract ZooAfterHook is ZooHookBase {
    /// IHooks.afterSwap: (selector, the hook's delta of the unspecified currency: positive, it keeps that much).
    function afterSwap(address, ZooPoolKey calldata key, ZooSwapParams calldata params, int256 delta, bytes calldata)
        external
        returns (bytes4, int128)
    {
        require(msg.sender == poolManager, "ZooHook: only the pool manager");
        return (this.afterSwap.selector, _afterSwap(key, params, delta));
    }

    function _afterSwap(ZooPoolKey calldata key, ZooSwapParams calldata params, int256 delta) internal virtual returns (int128);

    function _beforeSwap(address, ZooPoolKey calldata, ZooSwapParams calldata) internal pure override returns (int128) {
        return 0;
    }
}

/// Keeps 10 % of what every exact-input sell is paid, on the output side: it takes that share of the
/// quote out of the manager to itself and returns it as its delta, so the seller is paid the rest.
contract ZooHookAfterTax is ZooAfterHook {
    uint256 public constant CUT_BPS = 1_000;

    constructor(address poolManager_, address token_) ZooHookBase(poolManager_, token_) {}

    function _afterSwap(ZooPoolKey calldata key, ZooSwapParams calldata params, int256 delta) internal override returns (int128) {
        if (!_isSell(key, params) || params.amountSpecified >= 0) return 0;
        // The quote is the unspecified currency of a sale: the other side of the delta, owed to the seller.
        int128 paid = params.zeroForOne ? int128(delta) : int128(delta >> 128);
        if (paid <= 0) return 0;
        uint256 cut = uint256(uint128(paid)) * CUT_BPS / 10_000;
        if (cut == 0) return 0;
        IZooPoolManager(poolManager).take(params.zeroForOne ? key.currency1 : key.currency0, address(this), cut);
        return int128(int256(cut));
    }

    receive() external payable {}
}

/// Its twin: an afterSwap hook with a returned delta that records the last sale's payout and keeps nothing.
contract ZooHookAfterZero is ZooAfterHook {
    int128 public lastPaid;

    constructor(address poolManager_, address token_) ZooHookBase(poolManager_, token_) {}

    function _afterSwap(ZooPoolKey calldata, ZooSwapParams calldata params, int256 delta) internal override returns (int128) {
        lastPaid = params.zeroForOne ? int128(delta) : int128(delta >> 128);
        return 0;
    }
}

/// What a routed hook asks on every swap: whether the sender may make it.
interface IZooSwapRule {
    function allows(address sender, bool sell) external view returns (bool);
}

/// The rule the routed hooks start with: every swap is allowed.
contract ZooOpenRule is IZooSwapRule {
    function allows(address, bool) external pure returns (bool) {
        return true;
    }
}

/// A hook that asks a rule contract on every swap, and whose owner can point it at another
/// contract: whatever that contract answers (or a revert) decides who trades.
contract ZooHookRouted is ZooHookBase {
    address public owner;
    address public rule;

    constructor(address poolManager_, address token_, address owner_) ZooHookBase(poolManager_, token_) {
        owner = owner_;
        rule = address(new ZooOpenRule());
    }

    function setRule(address rule_) external {
        require(msg.sender == owner, "ZooHookRouted: not the owner");
        rule = rule_;
    }

    function _beforeSwap(address sender, ZooPoolKey calldata key, ZooSwapParams calldata params) internal view override returns (int128) {
        require(IZooSwapRule(rule).allows(sender, _isSell(key, params)), "ZooHookRouted: refused by its rule");
        return 0;
    }
}

/// Its twin: the same question asked of a rule fixed at deployment, with no owner.
contract ZooHookFixedRule is ZooHookBase {
    address public immutable rule;

    constructor(address poolManager_, address token_) ZooHookBase(poolManager_, token_) {
        rule = address(new ZooOpenRule());
    }

    function _beforeSwap(address sender, ZooPoolKey calldata key, ZooSwapParams calldata params) internal view override returns (int128) {
        require(IZooSwapRule(rule).allows(sender, _isSell(key, params)), "ZooHookFixedRule: refused by its rule");
        return 0;
    }
}
