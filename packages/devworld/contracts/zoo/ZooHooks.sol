// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Uniswap V4 hooks of the zoo, each with its legitimate look-alike. A hook runs on every swap of
/// its pool; the world deploys each at an address whose low bits carry its permissions
/// (beforeSwap = 1 << 7, beforeSwapReturnDelta = 1 << 3), as the PoolManager requires.

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
        return (this.beforeSwap.selector, int256(specified) << 128, 0);
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
