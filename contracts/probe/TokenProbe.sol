// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ProbeReaders} from "./ProbeReaders.sol";

interface IProbeWeth {
    function deposit() external payable;
}

interface IProbeV2Pair {
    function getReserves() external view returns (uint112, uint112, uint32);
    function token0() external view returns (address);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
}

interface IProbeV3Pool {
    function token0() external view returns (address);
    function swap(address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, bytes calldata data)
        external
        returns (int256, int256);
}

interface IProbeV3State {
    function slot0() external view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint32, bool);
    function liquidity() external view returns (uint128);
}

/** Uniswap V4's pool key, as its PoolManager's ABI has it (Currency and IHooks are addresses). */
struct ProbeV4Key {
    address currency0;
    address currency1;
    uint24 fee;
    int24 tickSpacing;
    address hooks;
}

struct ProbeV4SwapParams {
    bool zeroForOne;
    int256 amountSpecified;
    uint160 sqrtPriceLimitX96;
}

interface IProbeV4Manager {
    function unlock(bytes calldata data) external returns (bytes memory);
    function swap(ProbeV4Key memory key, ProbeV4SwapParams memory params, bytes calldata hookData) external returns (int256);
    function sync(address currency) external;
    function settle() external payable returns (uint256);
    function take(address currency, address to, uint256 amount) external;
    function extsload(bytes32 slot) external view returns (bytes32);
}

interface IProbeSolidlyPool {
    function getAmountOut(uint256 amountIn, address tokenIn) external view returns (uint256);
}

/** A bonding-curve launchpad (tokenrisk's launchpad interface): the token's curve, bought for the native coin, sold back with transferFrom. */
interface IProbeLaunchpad {
    function buyCost(address token, uint256 tokensOut) external view returns (uint256);
    function buy(address token, address to, uint256 minOut) external payable returns (uint256);
    function sell(address token, uint256 amount, uint256 minOut) external returns (uint256);
}

/** A four.meme-interface helper: which manager holds a token's curve, and what a buy of it costs. */
interface IProbeFourMemeHelper {
    function getTokenInfo(address token)
        external
        view
        returns (uint256, address, address, uint256, uint256, uint256, uint256, uint256, uint256, uint256, uint256, bool);
    function tryBuy(address token, uint256 amount, uint256 funds)
        external
        view
        returns (address, address, uint256, uint256, uint256, uint256, uint256, uint256);
}

/** A four.meme-interface manager: buys for the native coin sent, sells pulled with transferFrom after an approval. */
interface IProbeFourMemeManager {
    function buyTokenAMAP(address token, address to, uint256 funds, uint256 minAmount) external payable;
    function sellToken(address token, uint256 amount) external;
}

interface IProbeActor {
    function act(address target, bytes calldata data) external returns (bool ok, bytes memory ret);
}

/**
 * @title TokenProbe
 * @notice tokenrisk's simulation contract. It is never deployed: `eth_call` state overrides put its
 * runtime code at scratch addresses. One copy is the main probe (it holds ETH and drives the
 * experiments); copies at other addresses act as wallets (a buyer, a fresh recipient, a seller) or as
 * a privileged account (placing this code at the owner's address makes the probe's calls come from
 * the owner).
 *
 * Every experiment runs in an isolated self-call that always reverts with its encoded result, so that
 * each starts from the same state. Token calls get a bounded amount of gas and their return data is
 * truncated, so a gas-burning or return-bombing token cannot take the whole simulation down.
 * Failures of the probe itself (no route to the quote asset, too little gas, ...) are `ProbeFailure`
 * errors, so that they are never mistaken for the token's behaviour; the probe's top-level calls
 * never revert, so that a node's error on them is always the node's.
 */
contract TokenProbe is ProbeReaders {
    /**
     * The probe's own failures (it could not run an experiment: no route, too little gas, ...).
     * Never the token's behaviour. Revert data of a token carrying this selector is rewritten
     * before it is reported, so that a token cannot pass its own revert off as one.
     */
    error ProbeFailure(string reason);

    bytes4 private constant RESULT = 0x52455355;
    /** swapExactTokensForTokensSupportingFeeOnTransferTokens(uint256,uint256,address[],address,uint256) of V2 routers. */
    bytes4 private constant SWAP_SUPPORTING_FEE = 0x5c11d795;
    /** Return data kept from a call (a revert reason fits; a return bomb does not). */
    uint256 private constant MAX_RETURN = 320;
    /**
     * Gas an isolated experiment must have left to start: a few bounded token calls. Below it the
     * experiment is not run and says so, so that a short budget never reads as the token failing.
     */
    uint256 private constant MIN_EXPERIMENT_GAS = 2 * CALL_GAS;
    uint160 private constant MIN_SQRT_RATIO = 4295128740;
    uint160 private constant MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970341;
    /** Calldata word replaced by a runtime amount (half of account A's balance) in owner calls. */
    bytes32 private constant AMOUNT_PLACEHOLDER = 0x746f6b656e7269736b2d616d6f756e742d706c616365686f6c64657200000001;

    // Transient context of the main probe, for swap callbacks that need to buy the quote asset.
    uint256 private constant T_WETH = 0x746f6b656e7269736b2d77657468;
    uint256 private constant T_ROUTE = 0x746f6b656e7269736b2d726f757465;
    uint256 private constant T_ROUTE_KIND = 0x746f6b656e7269736b2d6b696e64;
    uint256 private constant T_ROUTE_FEE = 0x746f6b656e7269736b2d666565;

    struct Pool {
        address pool;
        uint8 kind; // 2 = Uniswap V2 type pair, 3 = Uniswap V3 type pool
        address quote;
        uint16 feeBps; // V2 swap fee in basis points (30 for Uniswap, 25 for PancakeSwap)
    }

    struct Route {
        address pool; // WETH/quote pool used to obtain the quote asset; zero when the quote is WETH
        uint8 kind;
        uint16 feeBps;
    }

    struct Outcome {
        bool ok;
        bytes err;
        uint256 sent; // tokens sent, or expected out for a buy
        uint256 received; // tokens that arrived (at the buyer, the recipient, or the pool for a sell)
    }

    struct TradeParams {
        address token;
        address weth;
        Pool pool;
        Route route;
        address w1; // fresh recipient of a transfer; sells
        address w2; // fresh buyer of the large buy
        address w3; // recipient of a transfer from w1 when the probe could not buy
        address[] donors; // accounts (carrying this code) that fund w1 when buying fails
        uint256 smallBps; // share of the pool's token balance bought by the small buys (basis points)
        uint256 largeBps; // share bought by the large buy
        bool sellsOnly; // buy, transfer and sell part of the balance only (a precondition's second look)
        address router; // the pool's DEX router (V2), to trade as wallets do; zero when there is none
    }

    struct TradeResult {
        uint256 startGas; // gas available when the call began (a node that caps eth_call gas shows here)
        Outcome buy;
        Outcome transfer;
        Outcome sellPart;
        Outcome sellAll;
        Outcome sell99;
        Outcome buyAgain;
        Outcome bigBuy;
        address seller;
        uint256 sellQuoteOut;
        Outcome routerBuy; // a buy through the router (fee-on-transfer variant), as wallets send it
        Outcome routerSell; // approve, then the router pulls half of the seller's balance with transferFrom
        bool routerApproved; // whether the seller's approve of the router went through
    }

    struct PowerParams {
        address token;
        address weth;
        Pool pool; // pool.pool == 0 when the token has none
        Route route;
        address[] candidates; // privileged-account candidates, each carrying this code
        address[] donors; // accounts (carrying this code) that can fund A and B when buying fails
        address a; // the targeted holder
        address b; // a bystander holder, never passed to owner functions
        address f; // fresh recipient
        address delegate; // a probe account that privileged calls can make a vault, minter, role holder...
        address[] watch; // accounts whose balances every measure reads (holders, pools, burn, candidates...)
        bytes[] variants; // calldata of the owner-function variants to try
        bytes[] grants; // calldata that names the delegate (setters, role grants), for two-step powers
        uint256 fundBps;
        uint256 bigBuyBps; // share of the pool a large buy asks for (a limit being lifted shows here)
        bytes[] flags; // calldata that names holder A (flag it, exclude it...): preconditions of chained powers
        address target; // the contract the variants, grants and flags call: the token, or a contract its trades pass through (a pool's hook)
    }

    /** What every owner-power measure needs, and no more: passed to each isolated experiment. */
    struct Scene {
        address token;
        Pool pool;
        address a;
        address b;
        address f;
        address[] watch;
        uint256 bigBuyBps;
        address[] spenders; // accounts whose allowances over A's and B's tokens every measure reads, then uses
        address target; // the contract the calls go to (PowerParams.target)
    }

    struct Measure {
        uint256 supply;
        bool supplyRead; // whether totalSupply() answered a word: every value of `supply` is a value the token gave
        uint256[] balances; // of `watch`, read right after the call, before any trade
        uint256 balancesRead; // bit i: whether balanceOf(watch[i]) answered a word (no value means "unknown"; watch[256..] never read)
        Outcome aTransfer;
        Outcome bTransfer;
        Outcome aSell;
        Outcome bSell;
        Outcome bBuy;
        Outcome bBigBuy;
        // Watched accounts (bit i: watch[i]) whose balance shown fell in the call and was not held:
        // before the call they could not send one unit more than they are shown after it, and after
        // it (and the trades above) they send the whole of what they are shown. Or whose balance
        // shown rose in the call and is not held: right after it they send the whole of what they
        // were shown before, and not one unit more. Set by a call's measure only; an account the
        // probe cannot act for never has its bit.
        uint256 notHeld;
        // An allowance over A's or B's tokens that neither gave (a call granted it): the first one
        // found, and a transferFrom through it by the spender, made after the trades above.
        address pullSpender;
        address pullHolder;
        uint256 pullAllowance;
        Outcome pull;
    }

    /** Balances of the watched accounts, and which were read (bit i: values[i]); the supply, and whether it was read. */
    struct Balances {
        uint256[] values;
        uint256 read;
        uint256 supply;
        bool supplyRead;
    }

    struct Attempt {
        address candidate;
        uint256 variant;
        bool called;
        bytes err;
        Measure m;
        bool raisesAgain; // the same call made a second time raised the supply again (not a one-shot emission)
    }

    struct PowerResult {
        uint256 startGas;
        bool funded;
        bool measured; // whether the baseline could be measured (without it no attempt means anything)
        Measure baseline;
        Attempt[] attempts;
        // Two steps, tried when no candidate could call the function itself: the grants that a
        // candidate could make in the delegate's favour, then the delegate calls the function.
        bool twoStep;
        uint256[] grantsMade; // indexes into `grants`
        address[] grantors; // who made each of them
        bool grantMeasured;
        Measure grantBaseline; // after the grants, before the delegate acts
        Attempt[] delegateAttempts;
        // Chained, tried when no candidate could call the function itself nor through an appointed
        // account: a precondition naming A (a flag, an exclusion) made by a candidate, a trade by B,
        // then the same candidate calls the function.
        bool chained;
        uint256 chainFlag; // index into `flags`
        address chainBy;
        bool chainMeasured;
        Measure chainBaseline; // after the precondition and the trade, before the call
        Attempt[] chainAttempts;
    }

    receive() external payable {}

    // ------------------------------------------------------------------------------------------
    // Actor entry points (used when this code sits at a wallet's or the owner's address)
    // ------------------------------------------------------------------------------------------

    /** Makes this address call `target`: the call's msg.sender is this address. */
    function act(address target, bytes calldata data) external returns (bool ok, bytes memory ret) {
        uint256 g = gasleft();
        (ok, ret) = _call(target, 0, data, g > 20_000 ? g - 20_000 : 0, MAX_RETURN);
        if (!ok) ret = _foreign(ret);
    }

    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external {
        _payCallback(amount0Delta, amount1Delta, data);
    }

    function pancakeV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external {
        _payCallback(amount0Delta, amount1Delta, data);
    }

    // ------------------------------------------------------------------------------------------
    // Trade experiment: buy, transfer, sell part / all / 99 %, buy again, buy big
    // ------------------------------------------------------------------------------------------

    function trade(TradeParams calldata p) external returns (TradeResult memory r) {
        r.startGas = gasleft();
        _setContext(p.weth, p.route);
        uint256 small = _poolTokenBalance(p.pool, p.token) * p.smallBps / 10_000;
        if (small == 0) small = 1;
        r.buy = _buy(p.token, p.pool, small, address(this));
        bool done;
        bytes memory out;
        if (!p.sellsOnly) {
            (done, out) = _isolate(abi.encodeCall(this.bigBuyExperiment, (p)));
            r.bigBuy = _decodeOutcome(done, out);
        }
        if (r.buy.ok && r.buy.received > 0) {
            r.transfer = _transferFrom(p.token, address(this), p.w1, _balanceOf(p.token, address(this)) / 2);
            r.seller = (r.transfer.ok && _balanceOf(p.token, p.w1) > 0) ? p.w1 : address(this);
        } else {
            // Could not buy: holders who got tokens otherwise may still sell. Fund w1 from a donor.
            for (uint256 i = 0; i < p.donors.length && _balanceOf(p.token, p.w1) == 0; i++) {
                uint256 bal = _balanceOf(p.token, p.donors[i]);
                if (bal >= 1_000) _act(p.donors[i], p.token, abi.encodeWithSelector(0xa9059cbb, p.w1, bal / 1_000));
            }
            if (_balanceOf(p.token, p.w1) == 0) return r;
            r.transfer = _transferFrom(p.token, p.w1, p.w3, _balanceOf(p.token, p.w1) / 2);
            r.seller = p.w1;
        }

        (done, out) = _isolate(abi.encodeCall(this.sellExperiment, (p.token, p.pool, r.seller, 5_000)));
        (r.sellPart, r.sellQuoteOut) = _decodeSell(done, out);
        if (p.sellsOnly) return r;
        _routerTrades(p, r, small);
        (done, out) = _isolate(abi.encodeCall(this.sellExperiment, (p.token, p.pool, r.seller, 10_000)));
        (r.sellAll,) = _decodeSell(done, out);
        (done, out) = _isolate(abi.encodeCall(this.sellExperiment, (p.token, p.pool, r.seller, 9_900)));
        (r.sell99,) = _decodeSell(done, out);
        (done, out) = _isolate(abi.encodeCall(this.buyExperiment, (p.token, p.pool, small, address(this))));
        r.buyAgain = _decodeOutcome(done, out);
    }

    function sellExperiment(address token, Pool calldata pool, address seller, uint256 shareBps) external {
        _onlySelf();
        uint256 amount = _balanceOf(token, seller) * shareBps / 10_000;
        (Outcome memory o, uint256 quoteOut) = _sell(token, pool, seller, amount);
        _finish(abi.encode(o, quoteOut));
    }

    function buyExperiment(address token, Pool calldata pool, uint256 amountOut, address to) external {
        _onlySelf();
        _finish(abi.encode(_buy(token, pool, amountOut, to)));
    }

    function bigBuyExperiment(TradeParams calldata p) external {
        _onlySelf();
        uint256 amount = _poolTokenBalance(p.pool, p.token) * p.largeBps / 10_000;
        _finish(abi.encode(_buy(p.token, p.pool, amount == 0 ? 1 : amount, p.w2)));
    }

    // ------------------------------------------------------------------------------------------
    // Trades as wallets make them: through the DEX's router (approve, then transferFrom)
    // ------------------------------------------------------------------------------------------

    function _routerTrades(TradeParams calldata p, TradeResult memory r, uint256 small) internal {
        if (p.router == address(0) || p.pool.kind != 2) return;
        (bool done, bytes memory out) = _isolate(abi.encodeCall(this.routerBuyExperiment, (p.token, p.pool, p.router, small, p.w2)));
        r.routerBuy = _decodeOutcome(done, out);
        (done, out) = _isolate(abi.encodeCall(this.routerSellExperiment, (p.token, p.pool, p.router, r.seller, 5_000)));
        if (done) (r.routerSell, r.routerApproved) = abi.decode(out, (Outcome, bool));
        else r.routerSell.err = out;
    }

    /** Buys about `amountOut` tokens for `to` through the router's fee-on-transfer variant, paying the quote. */
    function routerBuyExperiment(address token, Pool calldata pool, address router, uint256 amountOut, address to) external {
        _onlySelf();
        (uint256 amountIn, bytes memory why) = _routerPayment(token, pool, router, amountOut);
        if (amountIn == 0) _finish(abi.encode(_failed(amountOut, why)));
        Outcome memory o;
        o.sent = amountOut;
        (uint256 before, bool beforeRead) = _staticUintRead(token, abi.encodeWithSelector(0x70a08231, to));
        (o.ok, o.err) = _routerSwap(router, amountIn, pool.quote, token, to);
        if (!o.ok) o.err = _foreign(o.err);
        _received(token, to, before, beforeRead, o);
        _finish(abi.encode(o));
    }

    /** Obtains and approves to the router the quote a buy of `amountOut` costs; 0 and why when it cannot. */
    function _routerPayment(address token, Pool calldata pool, address router, uint256 amountOut) internal returns (uint256 amountIn, bytes memory why) {
        (uint256 rToken, uint256 rQuote,) = _reserves(pool.pool, token);
        if (amountOut >= rToken) return (0, _probeError("pool too small"));
        amountIn = (rQuote * amountOut * 10_000) / ((rToken - amountOut) * (10_000 - pool.feeBps)) + 1;
        bool ok;
        (ok, why) = _acquire(pool.quote, amountIn);
        if (!ok) return (0, why);
        (ok,) = _call(pool.quote, 0, abi.encodeWithSelector(0x095ea7b3, router, amountIn), CALL_GAS, MAX_RETURN);
        if (!ok) return (0, _probeError("could not approve the quote asset"));
    }

    /** The router's fee-on-transfer exact-input swap of `amountIn` from `tokenIn` to `tokenOut`, for `to`, sent by this address. */
    function _routerSwap(address router, uint256 amountIn, address tokenIn, address tokenOut, address to) internal returns (bool, bytes memory) {
        return _call(router, 0, _routerSwapCall(amountIn, tokenIn, tokenOut, to), CALL_GAS, MAX_RETURN);
    }

    function _routerSwapCall(uint256 amountIn, address tokenIn, address tokenOut, address to) internal view returns (bytes memory) {
        address[] memory path = new address[](2);
        (path[0], path[1]) = (tokenIn, tokenOut);
        return abi.encodeWithSelector(SWAP_SUPPORTING_FEE, amountIn, 0, path, to, block.timestamp + 1);
    }

    /**
     * `seller` approves the router for a share of its balance, then sells it through the router's
     * fee-on-transfer variant (the router pulls the tokens with transferFrom). `received` is what the
     * pool got; the bool says whether the approve went through.
     */
    function routerSellExperiment(address token, Pool calldata pool, address router, address seller, uint256 shareBps) external {
        _onlySelf();
        (Outcome memory o, bool approved) = _routerSell(token, pool, router, seller, _balanceOf(token, seller) * shareBps / 10_000);
        _finish(abi.encode(o, approved));
    }

    function _routerSell(address token, Pool calldata pool, address router, address seller, uint256 amount)
        internal
        returns (Outcome memory o, bool approved)
    {
        o.sent = amount;
        if (amount == 0) {
            o.err = _probeError("nothing to sell");
            return (o, false);
        }
        // As wallets do: approve only when the allowance the router has is short.
        if (_staticUint(token, abi.encodeWithSelector(0xdd62ed3e, seller, router)) >= amount) return _routerSwapFrom(token, pool, router, seller, amount);
        bytes memory ret;
        (approved, ret) = _act(seller, token, abi.encodeWithSelector(0x095ea7b3, router, amount));
        if (approved && _returnedFalse(ret)) {
            approved = false;
            ret = _observed("the token's approve returned false");
        }
        if (!approved) {
            o.err = ret;
            return (o, false);
        }
        return _routerSwapFrom(token, pool, router, seller, amount);
    }

    /** `seller` sells `amount` through the router, which pulls it with transferFrom; `received` is what the pool got. */
    function _routerSwapFrom(address token, Pool calldata pool, address router, address seller, uint256 amount)
        internal
        returns (Outcome memory o, bool approved)
    {
        approved = true;
        o.sent = amount;
        (uint256 poolBefore, bool beforeRead) = _staticUintRead(token, abi.encodeWithSelector(0x70a08231, pool.pool));
        (o.ok, o.err) = _act(seller, router, _routerSwapCall(amount, token, pool.quote, seller));
        _received(token, pool.pool, poolBefore, beforeRead, o);
    }

    function _failed(uint256 sent, bytes memory err) internal pure returns (Outcome memory o) {
        o.sent = sent;
        o.err = err;
    }

    // ------------------------------------------------------------------------------------------
    // Pools among the holders: an account that holds the token and answers as a pool of it is a
    // market, whatever exchange made it; each one found is traded like any pool.
    // ------------------------------------------------------------------------------------------

    /** Answers no pool read: it names the token as token0 or token1 and is no pool the probe knows. */
    uint8 private constant KIND_NAMES_TOKEN = 1;

    struct HolderPool {
        address account;
        uint8 kind; // 0 no pool of the token; KIND_NAMES_TOKEN; 2 V2-like (getReserves); 3 V3-like (slot0); 5 / 6 Solidly-style (stable())
        address other; // the pool's other token
        address factory; // what factory() answered (zero: nothing)
        uint256 reserveToken; // getReserves() (V2-like, Solidly-style), the pool's balance (V3-like)
        uint256 reserveOther;
        uint256 sqrtPriceX96; // slot0()'s first word (V3-like)
        uint256 otherDecimals; // the other token's decimals(), when `otherDecimalsRead`
        bool otherDecimalsRead;
        bytes otherSymbol; // the other token's symbol() answer (bounded), empty when it did not answer
        PoolInfo otherPool; // a token that is no quote asset: its deepest V2 or V3 pool against WETH (its route and its price); pool zero when none
        bytes trade; // the trade experiment's TradeResult (abi-encoded) when it ran; empty otherwise
        bytes err; // why it did not run, when it was tried
    }

    /** Where the quote assets come from: routes[i] obtains quotes[i]; any other token is bought through its own pools (dexes, V2 fees in dexFees). */
    struct HolderPoolScene {
        address[] quotes;
        Route[] routes;
        DexQuery[] dexes;
        uint16[] dexFees;
    }

    /**
     * Reads what each of `accounts` is; those that are pools of `t.token` are traded as `trade` does,
     * each in its own isolated experiment, with `t` as the template (its pool's fee is the one
     * assumed for V2-like pairs): against a quote asset obtained through its route, or against
     * another token bought with WETH through that token's deepest V2 or V3 pool.
     */
    function holderPools(TradeParams calldata t, address[] calldata accounts, HolderPoolScene calldata scene)
        external
        returns (uint256 startGas, HolderPool[] memory out)
    {
        startGas = gasleft();
        out = new HolderPool[](accounts.length);
        for (uint256 i = 0; i < accounts.length; i++) {
            out[i] = _holderPoolShape(t.token, accounts[i]);
            if (out[i].kind <= KIND_NAMES_TOKEN || out[i].reserveToken == 0 || out[i].reserveOther == 0) continue;
            (bool routed, Route memory route) = _holderPoolRoute(t.weth, scene, out[i]);
            if (!routed) continue;
            TradeParams memory p = t;
            p.pool = Pool(accounts[i], out[i].kind, out[i].other, t.pool.feeBps);
            p.route = route;
            (bool done, bytes memory ret) = _isolate(abi.encodeCall(this.holderPoolTradeExperiment, (p)));
            if (done) out[i].trade = ret;
            else out[i].err = ret;
        }
    }

    /** How the probe obtains the pool's other token: a quote asset's route, or the other token's deepest V2/V3 pool against WETH. */
    function _holderPoolRoute(address weth, HolderPoolScene calldata scene, HolderPool memory h) internal view returns (bool, Route memory route) {
        for (uint256 q = 0; q < scene.quotes.length; q++) {
            if (scene.quotes[q] == h.other) return (true, scene.routes[q]);
        }
        (h.otherDecimals, h.otherDecimalsRead) = _staticUintRead(h.other, abi.encodeWithSelector(0x313ce567));
        (bool named, bytes memory symbol) = _boundedRead(h.other, abi.encodeWithSelector(0x95d89b41));
        if (named) h.otherSymbol = symbol;
        address[] memory wethOnly = new address[](1);
        wethOnly[0] = weth;
        PoolInfo[] memory found = this.pools(h.other, scene.dexes, wethOnly);
        for (uint256 k = 0; k < found.length; k++) {
            if (found[k].kind != 2 && found[k].kind != 3) continue;
            if (found[k].reserveToken == 0 || found[k].reserveQuote == 0) continue;
            if (h.otherPool.pool == address(0) || found[k].reserveQuote > h.otherPool.reserveQuote) h.otherPool = found[k];
        }
        if (h.otherPool.pool == address(0)) return (false, route);
        route = Route(h.otherPool.pool, h.otherPool.kind, h.otherPool.kind == 2 ? scene.dexFees[h.otherPool.dex] : 0);
        return (true, route);
    }

    function holderPoolTradeExperiment(TradeParams calldata p) external {
        _onlySelf();
        _finish(abi.encode(this.trade(p)));
    }

    /** What `account` answers: a pool of `token` (which kind, its other token, reserves, factory) or not. */
    function _holderPoolShape(address token, address account) internal view returns (HolderPool memory h) {
        h.account = account;
        if (account.code.length == 0) return h;
        (uint256 w0, bool r0) = _staticUintRead(account, abi.encodeWithSelector(0x0dfe1681)); // token0()
        (uint256 w1, bool r1) = _staticUintRead(account, abi.encodeWithSelector(0xd21220a7)); // token1()
        if (!r0 || !r1 || w0 >> 160 != 0 || w1 >> 160 != 0) return h;
        bool tokenIs0 = address(uint160(w0)) == token;
        if (tokenIs0 == (address(uint160(w1)) == token)) return h;
        h.kind = KIND_NAMES_TOKEN;
        h.other = address(uint160(tokenIs0 ? w1 : w0));
        (uint256 f, bool rf) = _staticUintRead(account, abi.encodeWithSelector(0xc45a0155)); // factory()
        if (rf && f >> 160 == 0) h.factory = address(uint160(f));
        (bool ok, uint256 a, uint256 b) = _staticTwoWords(account, abi.encodeWithSelector(0x0902f1ac)); // getReserves()
        if (ok) {
            (h.reserveToken, h.reserveOther) = tokenIs0 ? (a, b) : (b, a);
            (uint256 st, bool rs) = _staticUintRead(account, abi.encodeWithSelector(0x22be3de1)); // stable()
            h.kind = !rs ? 2 : st != 0 ? KIND_SOLIDLY_STABLE : KIND_SOLIDLY;
            return h;
        }
        (ok, a,) = _staticTwoWords(account, abi.encodeWithSelector(0x3850c7bd)); // slot0()
        if (ok && a >> 160 == 0) {
            h.kind = 3;
            h.sqrtPriceX96 = a;
            h.reserveToken = _balanceOf(token, account);
            h.reserveOther = _balanceOf(h.other, account);
        }
    }

    /** The first two words a view answers (at least two), or not ok; never more than two words copied. */
    function _staticTwoWords(address target, bytes memory data) internal view returns (bool ok, uint256 a, uint256 b) {
        assembly {
            ok := staticcall(CALL_GAS, target, add(data, 0x20), mload(data), 0, 0)
            ok := and(ok, gt(returndatasize(), 63))
            if ok {
                returndatacopy(0, 0, 64)
                a := mload(0)
                b := mload(0x20)
            }
        }
    }

    // ------------------------------------------------------------------------------------------
    // Real holders sell: each of the largest holders of record sells its whole balance
    // ------------------------------------------------------------------------------------------

    struct HolderSell {
        address holder;
        uint256 balance; // before the sell
        Outcome all; // selling the whole balance (through the router when there is one)
        uint256 left; // the holder's balance after a whole sell that went through
        Outcome part; // selling a thousandth of the balance, tried when the whole sell failed
        Outcome direct; // the whole balance sent to the pair, when the router's sell failed: the token's own reason
        bool balanceRead; // `balance` was read (else unknown, never 0: nothing is sold)
        bool leftRead; // `left` was read (else unknown, never 0)
    }

    /**
     * Every holder (carrying the actor code) sells its whole balance on `pool` from the real state,
     * each in its own isolated experiment; a failed whole sell is followed by a small one (a limit
     * fails the first only; a block fails both).
     */
    function holderSells(address token, Pool calldata pool, address router, address[] calldata holders)
        external
        returns (uint256 startGas, HolderSell[] memory out)
    {
        startGas = gasleft();
        out = new HolderSell[](holders.length);
        for (uint256 i = 0; i < holders.length; i++) {
            (bool done, bytes memory ret) = _isolate(abi.encodeCall(this.holderSellExperiment, (token, pool, router, holders[i])));
            if (done) out[i] = abi.decode(ret, (HolderSell));
            else {
                out[i].holder = holders[i];
                out[i].all.err = ret;
            }
        }
    }

    function holderSellExperiment(address token, Pool calldata pool, address router, address holder) external {
        _onlySelf();
        HolderSell memory h;
        h.holder = holder;
        (h.balance, h.balanceRead) = _staticUintRead(token, abi.encodeWithSelector(0x70a08231, holder));
        if (h.balance == 0 || !h.balanceRead) _finish(abi.encode(h));
        h.all = _holderSell(token, pool, router, holder, h.balance);
        if (h.all.ok) (h.left, h.leftRead) = _staticUintRead(token, abi.encodeWithSelector(0x70a08231, holder));
        else h.part = _holderSell(token, pool, router, holder, h.balance / 1_000 == 0 ? 1 : h.balance / 1_000);
        // A router reverts with its own words ("TRANSFER_FROM_FAILED"): the token's are those of a plain transfer.
        if (!h.all.ok && router != address(0)) (h.direct,) = _sell(token, pool, holder, h.balance);
        _finish(abi.encode(h));
    }

    // ------------------------------------------------------------------------------------------
    // Supply at creation: the creation code run again, from this address
    // ------------------------------------------------------------------------------------------

    /**
     * Runs `initCode` (a creation transaction's input) with this address as its sender, then reads
     * the new contract's total supply and the balances of `accounts`: what the creation wrote,
     * whatever its events said. `created` is 0 when the creation failed. `supplyRead` and `read[i]`
     * false: that read failed, its value is unknown (never 0).
     */
    function creationBalances(bytes calldata initCode, address[] calldata accounts)
        external
        returns (address created, uint256 supply, uint256[] memory balances, bool supplyRead, bool[] memory read)
    {
        bytes memory code = initCode;
        assembly {
            created := create(0, add(code, 0x20), mload(code))
        }
        balances = new uint256[](accounts.length);
        read = new bool[](accounts.length);
        if (created == address(0)) return (created, 0, balances, false, read);
        (supply, supplyRead) = _staticUintRead(created, abi.encodeWithSelector(0x18160ddd));
        for (uint256 i = 0; i < accounts.length; i++) (balances[i], read[i]) = _staticUintRead(created, abi.encodeWithSelector(0x70a08231, accounts[i]));
    }

    function _holderSell(address token, Pool calldata pool, address router, address holder, uint256 amount) internal returns (Outcome memory o) {
        if (router != address(0) && pool.kind == 2) {
            (o,) = _routerSell(token, pool, router, holder, amount);
        } else {
            (o,) = _sell(token, pool, holder, amount);
        }
    }

    // ------------------------------------------------------------------------------------------
    // Owner-power experiment: call candidate functions as each candidate, measure what changed
    // ------------------------------------------------------------------------------------------

    function powers(PowerParams calldata p) external returns (PowerResult memory r) {
        r.startGas = gasleft();
        _setContext(p.weth, p.route);
        r.funded = _fund(p);
        Scene memory scene = Scene(p.token, p.pool, p.a, p.b, p.f, p.watch, p.bigBuyBps, _spenders(p), p.target);
        bytes[] memory none = new bytes[](0);
        address[] memory nobody = new address[](0);
        bytes memory base;
        (r.measured, base) = _isolate(abi.encodeCall(this.measureExperiment, (scene, none, nobody)));
        if (r.measured) r.baseline = abi.decode(base, (Measure));
        r.attempts = new Attempt[](p.candidates.length * p.variants.length);
        uint256 amount = _balanceOf(p.token, p.a) / 2;
        if (amount == 0) amount = _totalSupply(p.token) / 100;
        uint256 n;
        bool anyCalled;
        for (uint256 c = 0; c < p.candidates.length; c++) {
            for (uint256 v = 0; v < p.variants.length; v++) {
                r.attempts[n] = _attempt(scene, p.candidates[c], v, _substitute(p.variants[v], amount), none, nobody);
                anyCalled = anyCalled || r.attempts[n].called;
                n++;
            }
        }
        // No candidate can call it: maybe an account a candidate appoints can. Appoint the delegate
        // everywhere a candidate may, then let it call.
        if (!anyCalled && p.grants.length > 0) _twoStep(p, scene, amount, r);
        bool delegateCalled;
        for (uint256 v = 0; v < r.delegateAttempts.length; v++) delegateCalled = delegateCalled || r.delegateAttempts[v].called;
        // Nor through an appointed account: maybe after a precondition on the holder (flag, then act).
        if (!anyCalled && !delegateCalled && p.flags.length > 0) _chain(p, scene, amount, r);
    }

    /** The accounts an allowance over the holders' tokens may be granted to: the candidates, the delegate, the fresh account. */
    function _spenders(PowerParams calldata p) internal pure returns (address[] memory out) {
        out = new address[](p.candidates.length + 2);
        for (uint256 i = 0; i < p.candidates.length; i++) out[i] = p.candidates[i];
        out[p.candidates.length] = p.delegate;
        out[p.candidates.length + 1] = p.f;
    }

    /** Chains of powers tried at most: preconditions, each made then followed by every variant. */
    uint256 private constant MAX_CHAIN_FLAGS = 8;

    function _chain(PowerParams calldata p, Scene memory scene, uint256 amount, PowerResult memory r) internal {
        bytes[] memory variants = new bytes[](p.variants.length);
        for (uint256 v = 0; v < variants.length; v++) variants[v] = _substitute(p.variants[v], amount);
        for (uint256 f = 0; f < p.flags.length && f < MAX_CHAIN_FLAGS && !r.chained; f++) {
            if (gasleft() < MIN_EXPERIMENT_GAS * 2) return;
            (bool done, bytes memory out) = _isolate(abi.encodeCall(this.chainFindExperiment, (scene, p.candidates, p.flags[f], variants)));
            if (!done) continue;
            address by = abi.decode(out, (address));
            if (by == address(0)) continue;
            r.chained = true;
            r.chainFlag = f;
            r.chainBy = by;
        }
        if (!r.chained) return;
        bytes[] memory pre = new bytes[](1);
        pre[0] = p.flags[r.chainFlag];
        (bool measured, bytes memory base) = _isolate(abi.encodeCall(this.chainMeasureExperiment, (scene, r.chainBy, pre)));
        r.chainMeasured = measured;
        if (measured) r.chainBaseline = abi.decode(base, (Measure));
        r.chainAttempts = new Attempt[](variants.length);
        for (uint256 v = 0; v < variants.length; v++) {
            Attempt memory at = r.chainAttempts[v];
            at.candidate = r.chainBy;
            at.variant = v;
            (bool done, bytes memory out) = _isolate(abi.encodeCall(this.chainAttemptExperiment, (scene, r.chainBy, pre, variants[v])));
            if (done) (at.called, at.err, at.m, at.raisesAgain) = abi.decode(out, (bool, bytes, Measure, bool));
            else at.err = out;
        }
    }

    /** The first candidate that can make the precondition and then call some variant (zero: none). */
    function chainFindExperiment(Scene calldata s, address[] calldata candidates, bytes calldata flag, bytes[] calldata variants) external {
        _onlySelf();
        for (uint256 c = 0; c < candidates.length; c++) {
            (bool done, bytes memory out) = _isolate(abi.encodeCall(this.chainTryExperiment, (s, candidates[c], flag, variants)));
            if (done && abi.decode(out, (bool))) _finish(abi.encode(candidates[c]));
        }
        _finish(abi.encode(address(0)));
    }

    function chainTryExperiment(Scene calldata s, address caller, bytes calldata flag, bytes[] calldata variants) external {
        _onlySelf();
        (bool flagged,) = _act(caller, s.target, flag);
        if (!flagged) _finish(abi.encode(false));
        _nudge(s);
        for (uint256 v = 0; v < variants.length; v++) {
            (bool ok,) = _act(caller, s.target, variants[v]);
            if (ok) _finish(abi.encode(true));
        }
        _finish(abi.encode(false));
    }

    function chainMeasureExperiment(Scene calldata s, address by, bytes[] calldata pre) external {
        _onlySelf();
        for (uint256 i = 0; i < pre.length; i++) _act(by, s.target, pre[i]);
        _nudge(s);
        _finish(abi.encode(_measure(s)));
    }

    function chainAttemptExperiment(Scene calldata s, address caller, bytes[] calldata pre, bytes calldata data) external {
        _onlySelf();
        for (uint256 i = 0; i < pre.length; i++) _act(caller, s.target, pre[i]);
        _nudge(s);
        _callAndMeasure(s, caller, data);
    }

    /** A trade between a precondition and the call (B sells a twentieth, or sends it to F): what moves a reflection rate. */
    function _nudge(Scene calldata s) internal {
        uint256 amount = _balanceOf(s.token, s.b) / 20;
        if (amount == 0) return;
        if (s.pool.pool != address(0)) _sell(s.token, s.pool, s.b, amount);
        else _transferFrom(s.token, s.b, s.f, amount);
    }

    /**
     * The same calls as `powers`, one after the other and not isolated, so that what they do stays
     * in the state and their events are kept: traced by the node (the events name every account a
     * call credited or debited; the storage diff measures their balances). Answers the total
     * supply before the funding and after the last call, and whether each was read (a failed read
     * is unknown, never 0). Never reverts.
     */
    function powersReplay(PowerParams calldata p)
        external
        returns (uint256 supplyBefore, uint256 supplyAfter, bool beforeRead, bool afterRead)
    {
        (supplyBefore, beforeRead) = _staticUintRead(p.token, abi.encodeWithSelector(0x18160ddd));
        _setContext(p.weth, p.route);
        _fund(p);
        uint256 amount = _balanceOf(p.token, p.a) / 2;
        if (amount == 0) amount = supplyBefore / 100;
        bool anyCalled;
        for (uint256 c = 0; c < p.candidates.length; c++) {
            for (uint256 v = 0; v < p.variants.length; v++) {
                if (gasleft() < MIN_EXPERIMENT_GAS) return _replayEnd(p.token, supplyBefore, beforeRead);
                (bool ok,) = _act(p.candidates[c], p.target, _substitute(p.variants[v], amount));
                anyCalled = anyCalled || ok;
            }
        }
        if (!anyCalled && p.grants.length > 0) {
            _grantPasses(p.target, p.candidates, p.grants, false);
            if (gasleft() < MIN_EXPERIMENT_GAS) return _replayEnd(p.token, supplyBefore, beforeRead);
            for (uint256 v = 0; v < p.variants.length; v++) {
                if (gasleft() < MIN_EXPERIMENT_GAS) break;
                _act(p.delegate, p.target, _substitute(p.variants[v], amount));
            }
        }
        return _replayEnd(p.token, supplyBefore, beforeRead);
    }

    function _replayEnd(address token, uint256 supplyBefore, bool beforeRead)
        internal
        view
        returns (uint256, uint256 supplyAfter, bool, bool afterRead)
    {
        (supplyAfter, afterRead) = _staticUintRead(token, abi.encodeWithSelector(0x18160ddd));
        return (supplyBefore, supplyAfter, beforeRead, afterRead);
    }

    function _twoStep(PowerParams calldata p, Scene memory scene, uint256 amount, PowerResult memory r) internal {
        r.twoStep = true;
        (bool granted, bytes memory made) = _isolate(abi.encodeCall(this.grantExperiment, (p.target, p.candidates, p.grants)));
        if (!granted) return;
        (r.grantsMade, r.grantors) = abi.decode(made, (uint256[], address[]));
        if (r.grantsMade.length == 0) return;
        bytes[] memory replay = new bytes[](r.grantsMade.length);
        for (uint256 i = 0; i < replay.length; i++) replay[i] = p.grants[r.grantsMade[i]];
        bytes memory base;
        (r.grantMeasured, base) = _isolate(abi.encodeCall(this.measureExperiment, (scene, replay, r.grantors)));
        if (r.grantMeasured) r.grantBaseline = abi.decode(base, (Measure));
        r.delegateAttempts = new Attempt[](p.variants.length);
        for (uint256 v = 0; v < p.variants.length; v++) {
            r.delegateAttempts[v] = _attempt(scene, p.delegate, v, _substitute(p.variants[v], amount), replay, r.grantors);
        }
    }

    function _attempt(Scene memory scene, address caller, uint256 v, bytes memory data, bytes[] memory replay, address[] memory by)
        internal
        returns (Attempt memory at)
    {
        at.candidate = caller;
        at.variant = v;
        (bool done, bytes memory out) = _isolate(abi.encodeCall(this.attemptExperiment, (scene, caller, data, replay, by)));
        if (done) (at.called, at.err, at.m, at.raisesAgain) = abi.decode(out, (bool, bytes, Measure, bool));
        else at.err = out;
    }

    /** Passes over the grants at most: a grant one call enables (appoint a pair, then a helper) is made on the next pass. */
    uint256 private constant GRANT_PASSES = 3;

    /**
     * Every grant a candidate can make, in order; the first candidate that can makes it. A grant
     * refused on one pass is tried again on the next while the previous pass made some: chains of
     * up to three calls where one call's effect enables the next.
     */
    function grantExperiment(address target, address[] calldata candidates, bytes[] calldata grants) external {
        _onlySelf();
        (uint256[] memory made, address[] memory by) = _grantPasses(target, candidates, grants, true);
        _finish(abi.encode(made, by));
    }

    function _grantPasses(address target, address[] calldata candidates, bytes[] calldata grants, bool strict)
        internal
        returns (uint256[] memory made, address[] memory by)
    {
        made = new uint256[](grants.length);
        by = new address[](grants.length);
        bool[] memory done = new bool[](grants.length);
        uint256 n;
        for (uint256 pass = 0; pass < GRANT_PASSES; pass++) {
            uint256 before = n;
            for (uint256 g = 0; g < grants.length; g++) {
                if (done[g]) continue;
                if (gasleft() < MIN_EXPERIMENT_GAS * (candidates.length + 1)) {
                    if (strict) _bubble(_probeError("gas budget exhausted"));
                    break;
                }
                address granter = _grantOnce(target, candidates, grants[g]);
                if (granter == address(0)) continue;
                done[g] = true;
                made[n] = g;
                by[n++] = granter;
            }
            if (n == before) break;
        }
        assembly {
            mstore(made, n)
            mstore(by, n)
        }
    }

    /** The first candidate that can make the grant (it is made), or zero. */
    function _grantOnce(address target, address[] calldata candidates, bytes calldata grant) internal returns (address) {
        for (uint256 c = 0; c < candidates.length; c++) {
            (bool ok,) = _act(candidates[c], target, grant);
            if (ok) return candidates[c];
        }
        return address(0);
    }

    function measureExperiment(Scene calldata s, bytes[] calldata replay, address[] calldata by) external {
        _onlySelf();
        for (uint256 i = 0; i < replay.length; i++) _act(by[i], s.target, replay[i]);
        _finish(abi.encode(_measure(s)));
    }

    function attemptExperiment(Scene calldata s, address caller, bytes calldata data, bytes[] calldata replay, address[] calldata by) external {
        _onlySelf();
        for (uint256 i = 0; i < replay.length; i++) _act(by[i], s.target, replay[i]);
        _callAndMeasure(s, caller, data);
    }

    /**
     * The call, then the measure. The call and the measure run isolated first, so that the state
     * before the call is still here to ask, of each watched account whose balance shown fell and
     * that sent the whole of what it was shown afterwards, whether it held more before: a balance
     * shown and not held, brought down to what is held, takes nothing.
     */
    function _callAndMeasure(Scene calldata s, address caller, bytes calldata data) internal {
        Balances memory pre;
        (pre.values, pre.read) = _watchBalances(s);
        (pre.supply, pre.supplyRead) = _staticUintRead(s.token, abi.encodeWithSelector(0x18160ddd));
        (bool done, bytes memory out) = _isolate(abi.encodeCall(this.callExperiment, (s, caller, data, pre)));
        if (!done) _bubble(out);
        (bool ok, bytes memory err, Measure memory m, bool again, uint256 sentAll) = abi.decode(out, (bool, bytes, Measure, bool, uint256));
        if (!ok) _finish(abi.encode(false, err, m, false));
        for (uint256 i = 0; i < s.watch.length && i < 256; i++) {
            if (sentAll & (1 << i) == 0) continue;
            if (!_transferFrom(s.token, s.watch[i], s.f, m.balances[i] + 1).ok) m.notHeld |= 1 << i;
        }
        _finish(abi.encode(true, bytes(""), m, again));
    }

    /**
     * The call and its measure; then each watched account whose balance shown fell in the call
     * sends the whole of what it is shown (`sentAll`, bit i: watch[i] did). Always reverts.
     */
    function callExperiment(Scene calldata s, address caller, bytes calldata data, Balances calldata pre) external {
        _onlySelf();
        (bool ok, bytes memory err) = _act(caller, s.target, data);
        Measure memory m;
        if (!ok) _finish(abi.encode(false, err, m, false, uint256(0)));
        _measureReads(s, m);
        m.notHeld = _risenNotHeld(s, pre, m);
        _measureTrades(s, m);
        uint256 sentAll = _sendAllFallen(s, pre, m);
        _finish(abi.encode(true, bytes(""), m, _raisesAgain(s.token, s.target, caller, data), sentAll));
    }

    /**
     * Watched accounts whose balance shown rose in the call and is not held (bit i: watch[i]):
     * each sends the whole of what it was shown before the call, and not one unit more. Asked in
     * an experiment of its own (the sends are undone), only where some balance rose and the supply
     * did not.
     */
    function _risenNotHeld(Scene calldata s, Balances calldata pre, Measure memory post) internal returns (uint256 notHeld) {
        // A display raises no supply: a call that moved the supply (a mint in the open) is not asked.
        if (!pre.supplyRead || !post.supplyRead || post.supply != pre.supply) return 0;
        uint256 rose;
        for (uint256 i = 0; i < s.watch.length && i < 256; i++) {
            if (pre.read & (1 << i) != 0 && post.balancesRead & (1 << i) != 0 && post.balances[i] > pre.values[i]) rose |= 1 << i;
        }
        if (rose == 0) return 0;
        (bool done, bytes memory out) = _isolate(abi.encodeCall(this.riseExperiment, (s, pre, rose)));
        if (done) notHeld = abi.decode(out, (uint256));
    }

    /** Of the accounts in `rose`, those that cannot send one unit more than `pre` shows and can send all of it. Always reverts. */
    function riseExperiment(Scene calldata s, Balances calldata pre, uint256 rose) external {
        _onlySelf();
        uint256 notHeld;
        for (uint256 i = 0; i < s.watch.length && i < 256; i++) {
            if (rose & (1 << i) == 0) continue;
            if (_transferFrom(s.token, s.watch[i], s.f, pre.values[i] + 1).ok) continue;
            if (_transferFrom(s.token, s.watch[i], s.f, pre.values[i]).ok) notHeld |= 1 << i;
        }
        _finish(abi.encode(notHeld));
    }

    /** Each watched account whose balance shown fell (`pre` to `post`) sends the whole of what it is shown now: bit i, it did. */
    function _sendAllFallen(Scene calldata s, Balances calldata pre, Measure memory post) internal returns (uint256 sentAll) {
        for (uint256 i = 0; i < s.watch.length && i < 256; i++) {
            if (pre.read & (1 << i) == 0 || post.balancesRead & (1 << i) == 0 || post.balances[i] >= pre.values[i]) continue;
            Outcome memory o = _transferFrom(s.token, s.watch[i], s.f, _balanceOf(s.token, s.watch[i]));
            if (o.ok && o.sent > 0) sentAll |= 1 << i;
        }
    }

    function _watchBalances(Scene calldata s) internal view returns (uint256[] memory b, uint256 read) {
        b = new uint256[](s.watch.length);
        for (uint256 i = 0; i < s.watch.length; i++) {
            bool ok;
            (b[i], ok) = _staticUintRead(s.token, abi.encodeWithSelector(0x70a08231, s.watch[i]));
            if (ok && i < 256) read |= 1 << i;
        }
    }

    /** Once or at will: the same call made again raises the supply again. */
    function _raisesAgain(address token, address target, address caller, bytes calldata data) internal returns (bool) {
        uint256 supply = _totalSupply(token);
        (bool again,) = _act(caller, target, data);
        return again && _totalSupply(token) > supply;
    }

    function _fund(PowerParams calldata p) internal returns (bool) {
        if (p.pool.pool != address(0)) {
            uint256 amount = _poolTokenBalance(p.pool, p.token) * p.fundBps / 10_000;
            if (amount > 0) {
                _buy(p.token, p.pool, amount, p.a);
                _buy(p.token, p.pool, amount, p.b);
            }
        }
        for (uint256 i = 0; i < p.donors.length; i++) {
            if (_balanceOf(p.token, p.a) > 0 && _balanceOf(p.token, p.b) > 0) break;
            uint256 bal = _balanceOf(p.token, p.donors[i]);
            if (bal < 20) continue;
            if (_balanceOf(p.token, p.a) == 0) _act(p.donors[i], p.token, abi.encodeWithSelector(0xa9059cbb, p.a, bal / 10));
            if (_balanceOf(p.token, p.b) == 0) _act(p.donors[i], p.token, abi.encodeWithSelector(0xa9059cbb, p.b, bal / 10));
        }
        return _balanceOf(p.token, p.a) > 0 && _balanceOf(p.token, p.b) > 0;
    }

    function _measure(Scene calldata s) internal returns (Measure memory m) {
        _measureReads(s, m);
        _measureTrades(s, m);
    }

    /** The supply and the watched balances, read before any trade. */
    function _measureReads(Scene calldata s, Measure memory m) internal view {
        (m.supply, m.supplyRead) = _staticUintRead(s.token, abi.encodeWithSelector(0x18160ddd));
        (m.balances, m.balancesRead) = _watchBalances(s);
    }

    /** The trades of a measure, and the allowance pull after them. */
    function _measureTrades(Scene calldata s, Measure memory m) internal {
        m.bTransfer = _transferFrom(s.token, s.b, s.f, _balanceOf(s.token, s.b) / 100);
        m.aTransfer = _transferFrom(s.token, s.a, s.f, _balanceOf(s.token, s.a) / 100);
        if (s.pool.pool != address(0)) {
            (m.bSell,) = _sell(s.token, s.pool, s.b, _balanceOf(s.token, s.b) / 10);
            (m.aSell,) = _sell(s.token, s.pool, s.a, _balanceOf(s.token, s.a) / 10);
            uint256 reserve = _poolTokenBalance(s.pool, s.token);
            uint256 small = reserve / 1_000;
            m.bBuy = _buy(s.token, s.pool, small == 0 ? 1 : small, s.b);
            uint256 big = reserve * s.bigBuyBps / 10_000;
            m.bBigBuy = _buy(s.token, s.pool, big == 0 ? 1 : big, s.f);
        }
        _pull(s, m);
    }

    /**
     * An allowance over A's or B's tokens that a spender holds (neither ever approved anyone): the
     * spender pulls up to half the holder's balance with transferFrom, to itself.
     */
    function _pull(Scene calldata s, Measure memory m) internal {
        address[2] memory holders = [s.a, s.b];
        for (uint256 h = 0; h < 2; h++) {
            for (uint256 i = 0; i < s.spenders.length; i++) {
                uint256 allowed = _staticUint(s.token, abi.encodeWithSelector(0xdd62ed3e, holders[h], s.spenders[i]));
                if (allowed == 0) continue;
                uint256 bal = _balanceOf(s.token, holders[h]);
                uint256 amount = bal / 2 < allowed ? bal / 2 : allowed;
                m.pullSpender = s.spenders[i];
                m.pullHolder = holders[h];
                m.pullAllowance = allowed;
                m.pull.sent = amount;
                (uint256 before, bool beforeRead) = _staticUintRead(s.token, abi.encodeWithSelector(0x70a08231, s.spenders[i]));
                bytes memory ret;
                (m.pull.ok, ret) = _act(s.spenders[i], s.token, abi.encodeWithSelector(0x23b872dd, holders[h], s.spenders[i], amount));
                if (m.pull.ok && _returnedFalse(ret)) m.pull.ok = false;
                if (!m.pull.ok) m.pull.err = ret;
                _received(s.token, s.spenders[i], before, beforeRead, m.pull);
                return;
            }
        }
    }

    // ------------------------------------------------------------------------------------------
    // Reach of a numeric setter: the largest value it accepts and the highest tax it sets while
    // sales still work, searched by bisection between tried values, alone and with its sibling
    // setters at their largest accepted values
    // ------------------------------------------------------------------------------------------

    /** Bisection steps of each search (acceptance, then sales), at most. */
    uint256 private constant SEARCH_STEPS = 8;

    /** A numeric setter: its calldata, where its numeric words sit, and the largest value of each. */
    struct Setter {
        bytes data;
        uint256[] words; // byte offsets of the numeric arguments in `data`
        uint256[] maxes; // the largest value of each argument's type
    }

    /** One value tried: accepted by the setter, and B's sale of a tenth of its balance after it. */
    struct Point {
        uint256 value;
        bool accepted;
        Outcome sell;
    }

    struct Search {
        uint256 lastAccepted; // the largest value accepted
        bool refused; // some value above it was refused (lastAccepted is a cap)
        uint256 firstRefused;
        bool stops; // some accepted value makes sales fail...
        uint256 stopAt; // ...the smallest such value
        bool stopsAtTop; // ...and so does the largest accepted value (the fees themselves, not a limit)
        bool sells; // some accepted value lets sales work
        Point best; // the accepted value with the highest sell tax while sales work
        uint256 points;
    }

    struct ReachResult {
        uint256 startGas;
        bool funded;
        address caller; // the first candidate the setter accepts a call from (zero: none)
        Outcome baseSell; // B's sale before any call
        Search alone;
        Outcome bestBuy; // a small buy with the setter at alone.best
        uint256[] gains; // what each watched account gained over the sale at alone.best (who is paid)
        uint256 gainsRead; // bit i: gains[i] was read (both balances read); else unknown, never 0
        uint256 delegateGain; // what the delegate gained there once every address setter named it
        bool delegateGainRead; // the delegate's balance was read both times
        bool withSiblings;
        uint256[] siblingValues; // each sibling's largest accepted value, applied before the setter
        Search combined;
    }

    struct ReachScene {
        address token;
        Pool pool;
        address b;
        address caller;
        address target; // the contract the setter is called on (PowerParams.target)
    }

    function reach(PowerParams calldata p, Setter calldata target, Setter[] calldata siblings, uint256[] calldata grid)
        external
        returns (ReachResult memory r)
    {
        r.startGas = gasleft();
        _setContext(p.weth, p.route);
        r.funded = _fund(p);
        if (!r.funded || p.pool.pool == address(0)) return r;
        (r.baseSell,) = _sell(p.token, p.pool, p.b, _balanceOf(p.token, p.b) / 10);
        for (uint256 c = 0; c < p.candidates.length && r.caller == address(0); c++) {
            for (uint256 g = 0; g < grid.length; g++) {
                if (_accepts(p.target, p.candidates[c], _setTo(target, grid[g]), new bytes[](0))) {
                    r.caller = p.candidates[c];
                    break;
                }
            }
        }
        if (r.caller == address(0)) return r;
        ReachScene memory s = ReachScene(p.token, p.pool, p.b, r.caller, p.target);
        bytes[] memory none = new bytes[](0);
        r.alone = _search(s, target, none, grid, r.baseSell);
        // A setter that neither raises the tax nor stops sales is no fee setter: nothing more to search.
        if (!_raisesTax(r.alone, r.baseSell)) return r;
        if (r.alone.sells) _proceeds(p, s, _setTo(target, r.alone.best.value), r);
        if (siblings.length == 0) return r;
        r.withSiblings = true;
        bytes[] memory pre = new bytes[](siblings.length);
        r.siblingValues = new uint256[](siblings.length);
        for (uint256 i = 0; i < siblings.length; i++) {
            r.siblingValues[i] = _largestAccepted(p.target, r.caller, siblings[i], grid);
            pre[i] = _setTo(siblings[i], r.siblingValues[i]);
        }
        r.combined = _search(s, target, pre, grid, r.baseSell);
    }

    /** Whether a search found sales stopped, or a sell tax above the one before any call. */
    function _raisesTax(Search memory out, Outcome memory base) internal pure returns (bool) {
        if (out.stops) return true;
        if (!out.sells || !base.ok || base.sent == 0 || out.best.sell.sent == 0) return false;
        return out.best.sell.received * base.sent < base.received * out.best.sell.sent;
    }

    /** A buy, and who is paid over a sale, with the setter at its highest working tax. */
    function _proceeds(PowerParams calldata p, ReachScene memory s, bytes memory at, ReachResult memory r) internal {
        (bool done, bytes memory out) = _isolate(abi.encodeCall(this.reachBuyExperiment, (s, at)));
        r.bestBuy = _decodeOutcome(done, out);
        (done, out) = _isolate(abi.encodeCall(this.proceedsExperiment, (s, at, p, false)));
        if (done) (r.gains, r.gainsRead,,) = abi.decode(out, (uint256[], uint256, uint256, bool));
        if (p.grants.length == 0) return;
        (done, out) = _isolate(abi.encodeCall(this.proceedsExperiment, (s, at, p, true)));
        if (done) (,, r.delegateGain, r.delegateGainRead) = abi.decode(out, (uint256[], uint256, uint256, bool));
    }

    /** The tried values, then bisection of the acceptance cap and of the value where sales stop. */
    function _search(ReachScene memory s, Setter calldata t, bytes[] memory pre, uint256[] calldata grid, Outcome memory base)
        internal
        returns (Search memory out)
    {
        bool anyAccepted;
        bool haveOkBelowStop;
        uint256 okBelowStop;
        for (uint256 g = 0; g < grid.length; g++) {
            Point memory pt = _point(s, t, grid[g], pre);
            out.points++;
            if (!pt.accepted) {
                if (anyAccepted && !out.refused) {
                    out.refused = true;
                    out.firstRefused = grid[g];
                }
                continue;
            }
            if (out.refused && grid[g] > out.firstRefused) out.refused = false; // not a cap: a larger value is accepted again
            anyAccepted = true;
            out.lastAccepted = grid[g];
            _note(out, pt);
        }
        // Nothing raised the tax or stopped sales, and no cap lies between the tried values: no more to search.
        if (!anyAccepted || (!out.refused && !_raisesTax(out, base))) return out;
        // The cap: between the largest accepted value and the first refused above it.
        for (uint256 i = 0; i < SEARCH_STEPS && out.refused; i++) {
            uint256 mid = _mid(out.lastAccepted, out.firstRefused);
            if (mid == out.lastAccepted || gasleft() < MIN_EXPERIMENT_GAS * 4) break;
            Point memory pt = _point(s, t, mid, pre);
            out.points++;
            if (pt.accepted) {
                out.lastAccepted = mid;
                _note(out, pt);
            } else {
                out.firstRefused = mid;
            }
        }
        // Where sales stop: between the best working value below the first stopping one and it.
        if (out.stops && out.sells && out.best.value < out.stopAt) {
            okBelowStop = out.best.value;
            haveOkBelowStop = true;
        }
        for (uint256 i = 0; i < SEARCH_STEPS && haveOkBelowStop; i++) {
            uint256 mid = _mid(okBelowStop, out.stopAt);
            if (mid == okBelowStop || gasleft() < MIN_EXPERIMENT_GAS * 4) break;
            Point memory pt = _point(s, t, mid, pre);
            out.points++;
            if (!pt.accepted) break;
            if (pt.sell.ok) okBelowStop = mid;
            else out.stopAt = mid;
            _note(out, pt);
        }
        Point memory top = _point(s, t, out.lastAccepted, pre);
        out.points++;
        out.stopsAtTop = top.accepted && !top.sell.ok;
    }

    function _note(Search memory out, Point memory pt) internal pure {
        if (!pt.sell.ok) {
            if (!out.stops || pt.value < out.stopAt) out.stopAt = pt.value;
            out.stops = true;
            return;
        }
        if (pt.sell.sent == 0) return;
        // Higher tax: less received per token sent.
        if (!out.sells || pt.sell.received * out.best.sell.sent < out.best.sell.received * pt.sell.sent) out.best = pt;
        out.sells = true;
    }

    function _point(ReachScene memory s, Setter calldata t, uint256 v, bytes[] memory pre) internal returns (Point memory pt) {
        pt.value = v;
        (bool done, bytes memory out) = _isolate(abi.encodeCall(this.pointExperiment, (s, _setTo(t, v), pre)));
        if (done) (pt.accepted, pt.sell) = abi.decode(out, (bool, Outcome));
    }

    function _largestAccepted(address target, address caller, Setter calldata t, uint256[] calldata grid) internal returns (uint256 best) {
        bytes[] memory none = new bytes[](0);
        bool refused;
        uint256 firstRefused;
        for (uint256 g = 0; g < grid.length; g++) {
            if (_accepts(target, caller, _setTo(t, grid[g]), none)) {
                best = grid[g];
                refused = false;
            } else if (!refused && grid[g] > best) {
                refused = true;
                firstRefused = grid[g];
            }
        }
        for (uint256 i = 0; i < SEARCH_STEPS && refused; i++) {
            uint256 mid = _mid(best, firstRefused);
            if (mid == best) break;
            if (_accepts(target, caller, _setTo(t, mid), none)) best = mid;
            else firstRefused = mid;
        }
    }

    function _accepts(address target, address caller, bytes memory data, bytes[] memory pre) internal returns (bool ok) {
        (bool done, bytes memory out) = _isolate(abi.encodeCall(this.acceptExperiment, (target, caller, data, pre)));
        if (done) ok = abi.decode(out, (bool));
    }

    function acceptExperiment(address target, address caller, bytes calldata data, bytes[] calldata pre) external {
        _onlySelf();
        for (uint256 i = 0; i < pre.length; i++) _act(caller, target, pre[i]);
        (bool ok,) = _act(caller, target, data);
        _finish(abi.encode(ok));
    }

    function pointExperiment(ReachScene calldata s, bytes calldata data, bytes[] calldata pre) external {
        _onlySelf();
        for (uint256 i = 0; i < pre.length; i++) _act(s.caller, s.target, pre[i]);
        (bool ok,) = _act(s.caller, s.target, data);
        Outcome memory sell;
        if (ok) (sell,) = _sell(s.token, s.pool, s.b, _balanceOf(s.token, s.b) / 10);
        _finish(abi.encode(ok, sell));
    }

    function reachBuyExperiment(ReachScene calldata s, bytes calldata data) external {
        _onlySelf();
        _act(s.caller, s.target, data);
        uint256 small = _poolTokenBalance(s.pool, s.token) / 1_000;
        _finish(abi.encode(_buy(s.token, s.pool, small == 0 ? 1 : small, s.b)));
    }

    /** Who is paid over a sale: the watched accounts' gains, and the delegate's once address setters named it. */
    function proceedsExperiment(ReachScene calldata s, bytes calldata data, PowerParams calldata p, bool grant) external {
        _onlySelf();
        if (grant) _grantAll(p);
        _act(s.caller, s.target, data);
        (uint256[] memory before, uint256 readBefore) = _balancesRead(s.token, p.watch);
        (uint256 delegateBefore, bool delegateBeforeRead) = _staticUintRead(s.token, abi.encodeWithSelector(0x70a08231, p.delegate));
        _sell(s.token, s.pool, s.b, _balanceOf(s.token, s.b) / 10);
        (uint256[] memory gains, uint256 readAfter) = _balancesRead(s.token, p.watch);
        for (uint256 i = 0; i < gains.length; i++) gains[i] = gains[i] > before[i] ? gains[i] - before[i] : 0;
        (uint256 delegateNow, bool delegateNowRead) = _staticUintRead(s.token, abi.encodeWithSelector(0x70a08231, p.delegate));
        bool delegateRead = delegateBeforeRead && delegateNowRead;
        _finish(abi.encode(gains, readBefore & readAfter, delegateRead && delegateNow > delegateBefore ? delegateNow - delegateBefore : 0, delegateRead));
    }

    /** What each watched account gained over one sale, in the token and in the quote (`saleGains`). */
    struct SaleGains {
        bool funded;
        Outcome sell; // B's sale of a tenth of its balance
        uint256[] tokenGains;
        uint256 tokenRead; // bit i: tokenGains[i] was read on both sides; else unknown, never 0
        uint256[] quoteGains;
        uint256 quoteRead;
    }

    /**
     * Who is paid over a sale into the pool with nothing changed before it: holder B, funded as the
     * owner-power experiments fund it, sells a tenth of its balance, and each watched account's
     * balance of the token and of the quote (the native coin for address zero) is read around the
     * sale. What a pool's hook keeps of a sale lands where the hook sends it: itself, its owner, a
     * wallet it names.
     */
    function saleGains(PowerParams calldata p) external returns (SaleGains memory g) {
        _setContext(p.weth, p.route);
        g.funded = _fund(p);
        if (!g.funded || p.pool.pool == address(0)) return g;
        (uint256[] memory tokenBefore, uint256 tokenReadBefore) = _balancesRead(p.token, p.watch);
        (uint256[] memory quoteBefore, uint256 quoteReadBefore) = _quoteBalancesRead(p.pool.quote, p.watch);
        (g.sell,) = _sell(p.token, p.pool, p.b, _balanceOf(p.token, p.b) / 10);
        uint256 readAfter;
        (g.tokenGains, readAfter) = _balancesRead(p.token, p.watch);
        g.tokenRead = tokenReadBefore & readAfter;
        (g.quoteGains, readAfter) = _quoteBalancesRead(p.pool.quote, p.watch);
        g.quoteRead = quoteReadBefore & readAfter;
        for (uint256 i = 0; i < p.watch.length; i++) {
            g.tokenGains[i] = g.tokenGains[i] > tokenBefore[i] ? g.tokenGains[i] - tokenBefore[i] : 0;
            g.quoteGains[i] = g.quoteGains[i] > quoteBefore[i] ? g.quoteGains[i] - quoteBefore[i] : 0;
        }
    }

    /** Balances of `list` in a quote (the native coin for address zero, always read), and which were read. */
    function _quoteBalancesRead(address quote, address[] calldata list) internal view returns (uint256[] memory out, uint256 read) {
        if (quote != address(0)) return _balancesRead(quote, list);
        out = new uint256[](list.length);
        for (uint256 i = 0; i < list.length; i++) {
            out[i] = list[i].balance;
            if (i < 256) read |= 1 << i;
        }
    }

    /** Balances of `list`, and a bitmask of those read (bit i; the first 256): one not read is unknown, not 0. */
    function _balancesRead(address token, address[] calldata list) internal view returns (uint256[] memory out, uint256 read) {
        out = new uint256[](list.length);
        for (uint256 i = 0; i < list.length; i++) {
            bool ok;
            (out[i], ok) = _staticUintRead(token, abi.encodeWithSelector(0x70a08231, list[i]));
            if (ok && i < 256) read |= 1 << i;
        }
    }

    function _grantAll(PowerParams calldata p) internal {
        _grantPasses(p.target, p.candidates, p.grants, false);
    }

    /** The setter's calldata with every numeric argument set to `v` (at most its type's largest value). */
    function _setTo(Setter calldata t, uint256 v) internal pure returns (bytes memory out) {
        out = t.data;
        for (uint256 i = 0; i < t.words.length; i++) {
            uint256 x = v > t.maxes[i] ? t.maxes[i] : v;
            uint256 at = t.words[i];
            if (at + 32 > out.length) continue;
            assembly {
                mstore(add(add(out, 0x20), at), x)
            }
        }
    }

    /** A value between lo and hi: halfway in bits while they are far apart, then halfway. */
    function _mid(uint256 lo, uint256 hi) internal pure returns (uint256 m) {
        if (hi <= lo + 1) return lo;
        uint256 bl = _bitLength(lo);
        uint256 bh = _bitLength(hi);
        if (bh > bl + 1) {
            m = uint256(1) << ((bl + bh) / 2);
            if (m > lo && m < hi) return m;
        }
        m = lo + (hi - lo) / 2;
    }

    function _bitLength(uint256 x) internal pure returns (uint256 n) {
        while (x > 0) {
            n++;
            x >>= 1;
        }
    }

    // ------------------------------------------------------------------------------------------
    // Swaps
    // ------------------------------------------------------------------------------------------

    /** Buys exactly `amountOut` tokens (as the pool counts them) for `to`, paying the pool's quote. */
    function _buy(address token, Pool calldata pool, uint256 amountOut, address to) internal returns (Outcome memory o) {
        o.sent = amountOut;
        (uint256 before, bool beforeRead) = _staticUintRead(token, abi.encodeWithSelector(0x70a08231, to));
        bool ok;
        bytes memory err;
        if (pool.kind == 2) (ok, err) = _buyV2(token, pool, amountOut, to);
        else if (_isSolidly(pool)) (ok, err, o.sent) = _buySolidly(token, pool, amountOut, to);
        else if (pool.kind == KIND_V4) (ok, err) = _v4Trade(V4_BUY, token, pool, to, amountOut);
        else if (pool.kind == KIND_CURVE) (ok, err) = _buyCurve(token, pool, amountOut, to);
        else if (pool.kind == KIND_FOUR_MEME) (ok, err, o.sent) = _buyFourMeme(token, pool, amountOut, to);
        else (ok, err) = _buyV3(token, pool, amountOut, to);
        o.ok = ok;
        o.err = err;
        _received(token, to, before, beforeRead, o);
    }

    function _buyV2(address token, Pool calldata pool, uint256 amountOut, address to) internal returns (bool, bytes memory) {
        (uint256 rToken, uint256 rQuote, bool tokenIs0) = _reserves(pool.pool, token);
        if (amountOut >= rToken) return (false, _probeError("pool too small"));
        uint256 amountIn = (rQuote * amountOut * 10_000) / ((rToken - amountOut) * (10_000 - pool.feeBps)) + 1;
        (bool acquired, bytes memory why) = _acquire(pool.quote, amountIn);
        if (!acquired) return (false, why);
        (bool sent,) = _call(pool.quote, 0, abi.encodeWithSelector(0xa9059cbb, pool.pool, amountIn), CALL_GAS, MAX_RETURN);
        if (!sent) return (false, _probeError("quote transfer failed"));
        return _call(
            pool.pool,
            0,
            abi.encodeCall(IProbeV2Pair.swap, (tokenIs0 ? amountOut : 0, tokenIs0 ? 0 : amountOut, to, bytes(""))),
            CALL_GAS,
            MAX_RETURN
        );
    }

    function _buyV3(address token, Pool calldata pool, uint256 amountOut, address to) internal returns (bool, bytes memory) {
        bool quoteIs0 = IProbeV3Pool(pool.pool).token0() == pool.quote;
        if (amountOut > uint256(type(int256).max)) return (false, _probeError("amount too large"));
        return _call(
            pool.pool,
            0,
            abi.encodeCall(
                IProbeV3Pool.swap, (to, quoteIs0, -int256(amountOut), quoteIs0 ? MIN_SQRT_RATIO : MAX_SQRT_RATIO, abi.encode(pool.quote))
            ),
            CALL_GAS,
            MAX_RETURN
        );
    }

    /** `seller` sells `amount` tokens into the pool; `received` is what the pool got. */
    function _sell(address token, Pool calldata pool, address seller, uint256 amount)
        internal
        returns (Outcome memory o, uint256 quoteOut)
    {
        o.sent = amount;
        if (amount == 0) {
            o.err = _probeError("nothing to sell");
            return (o, 0);
        }
        uint256 quoteBefore = _balanceOf(pool.quote, seller);
        if (pool.kind == 2 || _isSolidly(pool)) {
            (o.ok, o.err, o.received) = _sellV2(token, pool, seller, amount);
        } else if (pool.kind == KIND_V4) {
            (o.ok, o.err, o.received) = _sellV4(token, pool, seller, amount);
        } else if (pool.kind == KIND_CURVE) {
            (uint256 curveBefore, bool beforeRead) = _staticUintRead(token, abi.encodeWithSelector(0x70a08231, pool.pool));
            (o.ok, o.err) = _sellCurve(token, pool, seller, amount);
            _received(token, pool.pool, curveBefore, beforeRead, o);
        } else if (pool.kind == KIND_FOUR_MEME) {
            address manager = _fourMemeManager(token, pool);
            (uint256 managerBefore, bool beforeRead) = _staticUintRead(token, abi.encodeWithSelector(0x70a08231, manager));
            (o.ok, o.err) = _sellFourMeme(token, manager, seller, amount);
            _received(token, manager, managerBefore, beforeRead, o);
        } else {
            (uint256 poolBefore, bool beforeRead) = _staticUintRead(token, abi.encodeWithSelector(0x70a08231, pool.pool));
            bool tokenIs0 = IProbeV3Pool(pool.pool).token0() == token;
            bytes memory swapCall = abi.encodeCall(
                IProbeV3Pool.swap, (seller, tokenIs0, int256(amount), tokenIs0 ? MIN_SQRT_RATIO : MAX_SQRT_RATIO, abi.encode(token))
            );
            (o.ok, o.err) = _act(seller, pool.pool, swapCall);
            _received(token, pool.pool, poolBefore, beforeRead, o);
        }
        uint256 quoteAfter = _balanceOf(pool.quote, seller);
        quoteOut = quoteAfter > quoteBefore ? quoteAfter - quoteBefore : 0;
    }

    function _sellV2(address token, Pool calldata pool, address seller, uint256 amount)
        internal
        returns (bool, bytes memory, uint256 netIn)
    {
        (bool ok, bytes memory err) = _act(seller, token, abi.encodeWithSelector(0xa9059cbb, pool.pool, amount));
        if (!ok) return (false, err, 0);
        if (_returnedFalse(err)) return (false, _observed("the token's transfer returned false"), 0);
        (ok, err, netIn) = _swapV2In(token, pool, seller);
        return (ok, err, netIn);
    }

    /** Swaps whatever the pair received beyond its token reserve for the quote, to `to`. */
    function _swapV2In(address token, Pool calldata pool, address to) internal returns (bool, bytes memory, uint256 netIn) {
        (uint256 rToken, uint256 rQuote, bool tokenIs0) = _reserves(pool.pool, token);
        (uint256 bal, bool read) = _staticUintRead(token, abi.encodeWithSelector(0x70a08231, pool.pool));
        // The pool's balance not read: what it received is unknown, not none.
        if (!read) return (false, _probeError("the pool's balance could not be read"), 0);
        netIn = bal > rToken ? bal - rToken : 0;
        if (netIn == 0) return (false, _observed("the pool received none of the tokens sent"), 0);
        uint256 inWithFee = netIn * (10_000 - pool.feeBps);
        uint256 out = _isSolidly(pool) ? _solidlyOut(pool.pool, netIn, token) : (inWithFee * rQuote) / (rToken * 10_000 + inWithFee);
        if (out == 0) return (false, _probeError("sell too small"), netIn);
        bytes memory swapCall = abi.encodeCall(IProbeV2Pair.swap, (tokenIs0 ? 0 : out, tokenIs0 ? out : 0, to, bytes("")));
        (bool ok, bytes memory err) = _call(pool.pool, 0, swapCall, CALL_GAS, MAX_RETURN);
        return (ok, err, netIn);
    }

    function _transferFrom(address token, address from, address to, uint256 amount) internal returns (Outcome memory o) {
        o.sent = amount;
        (uint256 before, bool beforeRead) = _staticUintRead(token, abi.encodeWithSelector(0x70a08231, to));
        bytes memory ret;
        if (from == address(this)) {
            (o.ok, ret) = _call(token, 0, abi.encodeWithSelector(0xa9059cbb, to, amount), CALL_GAS, MAX_RETURN);
            if (!o.ok) ret = _foreign(ret);
        } else {
            (o.ok, ret) = _act(from, token, abi.encodeWithSelector(0xa9059cbb, to, amount));
        }
        if (o.ok && _returnedFalse(ret)) {
            o.ok = false;
            ret = _observed("the token's transfer returned false");
        }
        if (!o.ok) o.err = ret;
        _received(token, to, before, beforeRead, o);
    }

    /**
     * What arrived at `account` since `before`: when either balance read failed, what arrived is
     * unknown (never 0), and the outcome is the probe's failure to measure, not the token's.
     */
    function _received(address token, address account, uint256 before, bool beforeRead, Outcome memory o) internal view {
        (uint256 afterBal, bool afterRead) = _staticUintRead(token, abi.encodeWithSelector(0x70a08231, account));
        if (!beforeRead || !afterRead) {
            o.ok = false;
            o.err = _probeError("a balance could not be read");
            o.received = 0;
            return;
        }
        o.received = afterBal > before ? afterBal - before : 0;
    }

    /**
     * Obtains `amount` of `quote` for this probe: wraps ETH, or buys through the route pool. Never
     * reverts: a failure is returned as a probe reason (the probe cannot trade), so that no
     * experiment's top-level call fails because of it.
     */
    function _acquire(address quote, uint256 amount) internal returns (bool, bytes memory) {
        uint256 have = _balanceOf(quote, address(this));
        if (have >= amount) return (true, "");
        uint256 need = amount - have;
        address weth = address(uint160(_tload(T_WETH)));
        if (quote == weth) {
            (bool wrapped,) = _call(weth, need, abi.encodeCall(IProbeWeth.deposit, ()), CALL_GAS, MAX_RETURN);
            return wrapped ? (true, bytes("")) : (false, _probeError("could not wrap the native coin"));
        }
        address route = address(uint160(_tload(T_ROUTE)));
        if (route == address(0)) return (false, _probeError("no route to the quote asset"));
        bool ok;
        if (_tload(T_ROUTE_KIND) == 2) {
            (uint256 rQuote, uint256 rWeth, bool quoteIs0) = _reserves(route, quote);
            if (need >= rQuote) return (false, _probeError("quote route too shallow"));
            uint256 fee = _tload(T_ROUTE_FEE);
            uint256 wethIn = (rWeth * need * 10_000) / ((rQuote - need) * (10_000 - fee)) + 1;
            (ok,) = _call(weth, wethIn, abi.encodeCall(IProbeWeth.deposit, ()), CALL_GAS, MAX_RETURN);
            if (ok) (ok,) = _call(weth, 0, abi.encodeWithSelector(0xa9059cbb, route, wethIn), CALL_GAS, MAX_RETURN);
            if (ok) {
                (ok,) = _call(
                    route,
                    0,
                    abi.encodeCall(IProbeV2Pair.swap, (quoteIs0 ? need : 0, quoteIs0 ? 0 : need, address(this), bytes(""))),
                    CALL_GAS,
                    MAX_RETURN
                );
            }
        } else {
            bool wethIs0 = IProbeV3Pool(route).token0() == weth;
            (ok,) = _call(
                route,
                0,
                abi.encodeCall(
                    IProbeV3Pool.swap, (address(this), wethIs0, -int256(need), wethIs0 ? MIN_SQRT_RATIO : MAX_SQRT_RATIO, abi.encode(weth))
                ),
                CALL_GAS,
                MAX_RETURN
            );
        }
        return ok ? (true, bytes("")) : (false, _probeError("could not obtain the quote asset through its route"));
    }

    function _payCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) internal {
        address payToken = abi.decode(data, (address));
        uint256 owed = uint256(amount0Delta > 0 ? amount0Delta : amount1Delta);
        if (_balanceOf(payToken, address(this)) < owed) {
            (bool acquired, bytes memory why) = _acquire(payToken, owed);
            if (!acquired) _bubble(why);
        }
        (bool ok, bytes memory ret) = _call(payToken, 0, abi.encodeWithSelector(0xa9059cbb, msg.sender, owed), CALL_GAS, MAX_RETURN);
        if (!ok) _bubble(_foreign(ret));
    }

    // ------------------------------------------------------------------------------------------
    // Solidly-style pools (kinds 5 volatile, 6 stable: Aerodrome, Velodrome): V2-like pairs whose
    // curve the pool itself prices (`getAmountOut`); sells are a transfer to the pool, then `swap`.
    // ------------------------------------------------------------------------------------------

    function _isSolidly(Pool calldata pool) internal pure returns (bool) {
        return pool.kind == KIND_SOLIDLY || pool.kind == KIND_SOLIDLY_STABLE;
    }

    /** What the pool pays for `amountIn` of `tokenIn`, as it prices it (0 when it will not say). */
    function _solidlyOut(address pool, uint256 amountIn, address tokenIn) internal view returns (uint256) {
        return _staticUint(pool, abi.encodeCall(IProbeSolidlyPool.getAmountOut, (amountIn, tokenIn)));
    }

    /**
     * Buys about `amountOut` tokens: the quote paid is found from the pool's own price (two steps
     * of `getAmountOut`, as its curve may be the stable one); `sent` is what the pool then pays out.
     */
    function _buySolidly(address token, Pool calldata pool, uint256 amountOut, address to)
        internal
        returns (bool, bytes memory, uint256 sent)
    {
        uint256 amountIn;
        bytes memory why;
        (amountIn, sent, why) = _solidlyBuyAmounts(token, pool, amountOut);
        if (why.length > 0) return (false, why, sent);
        (bool ok, bytes memory err) = _solidlySwapIn(token, pool, amountIn, sent, to);
        return (ok, err, sent);
    }

    /** Pays `amountIn` of the quote to the pool, then takes `out` tokens for `to`. */
    function _solidlySwapIn(address token, Pool calldata pool, uint256 amountIn, uint256 out, address to) internal returns (bool, bytes memory) {
        (bool acquired, bytes memory failed) = _acquire(pool.quote, amountIn);
        if (!acquired) return (false, failed);
        (bool paid,) = _call(pool.quote, 0, abi.encodeWithSelector(0xa9059cbb, pool.pool, amountIn), CALL_GAS, MAX_RETURN);
        if (!paid) return (false, _probeError("quote transfer failed"));
        bool tokenIs0 = IProbeV2Pair(pool.pool).token0() == token;
        return _call(pool.pool, 0, abi.encodeCall(IProbeV2Pair.swap, (tokenIs0 ? out : 0, tokenIs0 ? 0 : out, to, bytes(""))), CALL_GAS, MAX_RETURN);
    }

    /** The quote to pay for about `amountOut` tokens, and what the pool says it pays for it; or why there is none. */
    function _solidlyBuyAmounts(address token, Pool calldata pool, uint256 amountOut)
        internal
        view
        returns (uint256 amountIn, uint256 sent, bytes memory why)
    {
        sent = amountOut;
        (uint256 rToken, uint256 rQuote,) = _reserves(pool.pool, token);
        if (amountOut >= rToken) return (0, sent, _probeError("pool too small"));
        amountIn = rQuote * amountOut / (rToken - amountOut) + 1;
        uint256 out = _solidlyOut(pool.pool, amountIn, pool.quote);
        if (out == 0) return (0, sent, _probeError("the pool prices no trade"));
        amountIn = amountIn * amountOut / out + 1;
        uint256 priced = _solidlyOut(pool.pool, amountIn, pool.quote);
        if (priced == 0 || priced >= rToken) return (0, sent, _probeError("the pool prices no trade"));
        sent = priced;
    }

    // ------------------------------------------------------------------------------------------
    // Launchpad curves (pool kind 7): `pool.pool` is the launchpad holding the token's curve; buys
    // pay it the native coin, sells approve it and it pulls the tokens (what it received counts).
    // ------------------------------------------------------------------------------------------

    uint8 private constant KIND_CURVE = 7;

    /** Buys about `amountOut` tokens (the curve's rounding may give a little more) for `to`, paying the curve's price in the native coin. */
    function _buyCurve(address token, Pool calldata pool, uint256 amountOut, address to) internal returns (bool, bytes memory) {
        (uint256 cost, bool priced) = _staticUintRead(pool.pool, abi.encodeCall(IProbeLaunchpad.buyCost, (token, amountOut)));
        if (!priced || cost == 0) return (false, _probeError("the curve prices no buy"));
        if (address(this).balance < cost) return (false, _probeError("too little native coin for the curve"));
        return _call(pool.pool, cost, abi.encodeCall(IProbeLaunchpad.buy, (token, to, 0)), CALL_GAS, MAX_RETURN);
    }

    /** `seller` approves the launchpad and sells `amount` tokens back to the curve. */
    function _sellCurve(address token, Pool calldata pool, address seller, uint256 amount) internal returns (bool, bytes memory) {
        (bool ok, bytes memory err) = _act(seller, token, abi.encodeWithSelector(0x095ea7b3, pool.pool, amount));
        if (!ok) return (false, err);
        if (_returnedFalse(err)) return (false, _observed("the token's approve returned false"));
        return _act(seller, pool.pool, abi.encodeCall(IProbeLaunchpad.sell, (token, amount, 0)));
    }

    // ------------------------------------------------------------------------------------------
    // four.meme-interface curves (pool kind 8): `pool.pool` is the helper (`getTokenInfo`,
    // `tryBuy`), which names the manager holding the token's curve; buys pay the manager the native
    // coin through `buyTokenAMAP`, sells approve it and `sellToken` pulls the tokens (what reached
    // the manager counts).
    // ------------------------------------------------------------------------------------------

    uint8 private constant KIND_FOUR_MEME = 8;
    /** The words of the helper's answers read: getTokenInfo's version and tokenManager; tryBuy's estimatedAmount, amountMsgValue and amountFunds. */
    uint256 private constant FOUR_MEME_INFO_WORDS = 2;
    uint256 private constant FOUR_MEME_INFO_VERSION = 0;
    uint256 private constant FOUR_MEME_INFO_MANAGER = 1;
    /** The manager interface's version whose `buyTokenAMAP` and `sellToken` the probe calls (TokenManager2's). */
    uint256 private constant FOUR_MEME_TRADED_VERSION = 2;
    uint256 private constant FOUR_MEME_TRY_WORDS = 8;
    uint256 private constant FOUR_MEME_TRY_AMOUNT = 2;
    uint256 private constant FOUR_MEME_TRY_MSG_VALUE = 5;
    uint256 private constant FOUR_MEME_TRY_FUNDS = 7;

    /** The first `count` words a view answers (only those are copied), and whether it answered that many. */
    function _staticWords(address target, bytes memory data, uint256 count) internal view returns (uint256[] memory words, bool read) {
        words = new uint256[](count);
        uint256 size;
        assembly {
            read := staticcall(CALL_GAS, target, add(data, 0x20), mload(data), 0, 0)
            size := returndatasize()
            if and(read, iszero(lt(size, mul(count, 32)))) {
                returndatacopy(add(words, 0x20), 0, mul(count, 32))
            }
        }
        read = read && size >= count * 32;
    }

    /** The manager the helper names for the token: zero when it names none, or one of another interface than TokenManager2's. */
    function _fourMemeManager(address token, Pool calldata pool) internal view returns (address) {
        (uint256[] memory w, bool read) = _staticWords(pool.pool, abi.encodeCall(IProbeFourMemeHelper.getTokenInfo, (token)), FOUR_MEME_INFO_WORDS);
        if (!read || w[FOUR_MEME_INFO_VERSION] != FOUR_MEME_TRADED_VERSION) return address(0);
        return address(uint160(w[FOUR_MEME_INFO_MANAGER]));
    }

    /**
     * What buying about `amountOut` tokens takes, as the helper prices it: the value to send and the
     * funds to name (`tryBuy(token, amountOut, 0)`), and the tokens those funds buy (`tryBuy(token, 0,
     * funds)`): what the buy sends. Zeros when the helper prices no buy.
     */
    function _fourMemeBuyPrice(address token, address helper, uint256 amountOut) internal view returns (uint256 value, uint256 funds, uint256 expected) {
        (uint256[] memory cost, bool priced) = _staticWords(helper, abi.encodeCall(IProbeFourMemeHelper.tryBuy, (token, amountOut, 0)), FOUR_MEME_TRY_WORDS);
        if (!priced) return (0, 0, 0);
        (value, funds) = (cost[FOUR_MEME_TRY_MSG_VALUE], cost[FOUR_MEME_TRY_FUNDS]);
        if (funds == 0) return (0, 0, 0);
        (uint256[] memory got, bool quoted) = _staticWords(helper, abi.encodeCall(IProbeFourMemeHelper.tryBuy, (token, 0, funds)), FOUR_MEME_TRY_WORDS);
        expected = quoted ? got[FOUR_MEME_TRY_AMOUNT] : 0;
    }

    /** Buys about `amountOut` tokens for `to` through `buyTokenAMAP`, paying the native coin; returns what the curve said it sends. */
    function _buyFourMeme(address token, Pool calldata pool, uint256 amountOut, address to) internal returns (bool, bytes memory, uint256) {
        if (pool.quote != address(0)) return (false, _probeError("the curve is quoted in a token, not the native coin"), amountOut);
        address manager = _fourMemeManager(token, pool);
        if (manager == address(0)) return (false, _probeError("the helper names no TokenManager2-interface manager for the token"), amountOut);
        (uint256 value, uint256 funds, uint256 expected) = _fourMemeBuyPrice(token, pool.pool, amountOut);
        if (value == 0 || expected == 0) return (false, _probeError("the curve prices no buy"), amountOut);
        if (address(this).balance < value) return (false, _probeError("too little native coin for the curve"), expected);
        bytes memory buy = abi.encodeCall(IProbeFourMemeManager.buyTokenAMAP, (token, to, funds, 0));
        (bool ok, bytes memory err) = _call(manager, value, buy, CALL_GAS, MAX_RETURN);
        return (ok, err, expected);
    }

    /** `seller` approves the manager and sells `amount` tokens back to the curve with `sellToken`. */
    function _sellFourMeme(address token, address manager, address seller, uint256 amount) internal returns (bool, bytes memory) {
        if (manager == address(0)) return (false, _probeError("the helper names no TokenManager2-interface manager for the token"));
        (bool ok, bytes memory err) = _act(seller, token, abi.encodeWithSelector(0x095ea7b3, manager, amount));
        if (!ok) return (false, err);
        if (_returnedFalse(err)) return (false, _observed("the token's approve returned false"));
        return _act(seller, manager, abi.encodeCall(IProbeFourMemeManager.sellToken, (token, amount)));
    }

    // ------------------------------------------------------------------------------------------
    // Uniswap V4 (pool kind 4): a pool lives in the PoolManager, named by its key. `pool.pool` is
    // an account whose code is the data `abi.encode(manager, key)` (placed by a state override);
    // trades unlock the manager, swap with the hook live, settle what is owed and take what is due.
    // ------------------------------------------------------------------------------------------

    uint8 private constant KIND_V4 = 4;
    uint8 private constant V4_BUY = 1;
    uint8 private constant V4_SELL = 2;
    /** `WrappedError(address,bytes4,bytes,bytes)`: how the PoolManager wraps a hook's or a token's revert. */
    bytes4 private constant V4_WRAPPED_ERROR = 0x90bfb865;
    /** The PoolManager's storage slot of `mapping(PoolId => Pool.State) pools`. */
    uint256 private constant V4_POOLS_SLOT = 6;
    uint256 private constant V4_KEY_BYTES = 192;
    /** Return data kept from the manager's calls inside an unlock: a WrappedError around a reason fits. */
    uint256 private constant V4_MAX_RETURN = 1024;

    /** The manager and key a V4 pool's account carries as its code; a zero manager when it carries none. */
    function _v4Key(address holder) internal view returns (address manager, ProbeV4Key memory key) {
        if (holder.code.length < V4_KEY_BYTES) return (address(0), key);
        bytes memory data = new bytes(V4_KEY_BYTES);
        assembly {
            extcodecopy(holder, add(data, 0x20), 0, 192)
        }
        (manager, key) = abi.decode(data, (address, ProbeV4Key));
    }

    /** A V4 pool's √-price (Q64.96) and in-range liquidity, read from the manager. */
    function _v4State(address manager, ProbeV4Key memory key) internal view returns (uint256 sqrtPrice, uint256 liquidity) {
        bytes32 state = keccak256(abi.encode(keccak256(abi.encode(key)), V4_POOLS_SLOT));
        sqrtPrice = uint256(IProbeV4Manager(manager).extsload(state)) & type(uint160).max;
        liquidity = uint256(IProbeV4Manager(manager).extsload(bytes32(uint256(state) + 3))) & type(uint128).max;
    }

    /** The pool's virtual token reserve at its current price, √-price and liquidity read from the manager. */
    function _v4TokenReserve(address holder, address token) internal view returns (uint256) {
        (address manager, ProbeV4Key memory key) = _v4Key(holder);
        if (manager == address(0)) return 0;
        (uint256 sqrtPrice, uint256 liquidity) = _v4State(manager, key);
        if (sqrtPrice == 0) return 0;
        return key.currency0 == token ? (liquidity << 96) / sqrtPrice : (liquidity * sqrtPrice) >> 96;
    }

    /** A V4 key's fee with this bit set is dynamic: the hook sets it (LPFeeLibrary.DYNAMIC_FEE_FLAG). */
    uint24 private constant V4_DYNAMIC_FEE_FLAG = 0x800000;
    /** The LP fee's denominator: hundredths of a basis point (LPFeeLibrary.MAX_LP_FEE is 100 %). */
    uint256 private constant V4_FEE_DENOMINATOR = 1_000_000;

    /** What a V4 sale moved: the manager's token balance, the pool's state and the seller's quote, before and after. */
    struct V4Sale {
        uint256 netIn; // tokens the manager kept (a hook's take in tokens excluded)
        uint256 price0;
        uint256 liquidity0;
        uint256 price1;
        uint256 liquidity1;
        uint256 quoteOut; // the quote that reached the seller
    }

    /**
     * `seller` sells `amount` into the V4 pool. `netIn` is the share of the sale that reached the
     * pool as a trade, in tokens: what the manager kept (a hook's take of the tokens excluded), less
     * a dynamic LP fee (a fee the hook sets, unlike the key's own) and in proportion to what a hook
     * kept of the quote the pool paid out (see `_v4Effective`).
     */
    function _sellV4(address token, Pool calldata pool, address seller, uint256 amount)
        internal
        returns (bool ok, bytes memory err, uint256 netIn)
    {
        (address manager, ProbeV4Key memory key) = _v4Key(pool.pool);
        V4Sale memory s;
        if (manager != address(0)) (s.price0, s.liquidity0) = _v4State(manager, key);
        s.quoteOut = _nativeOrBalance(pool.quote, seller);
        (uint256 before, bool beforeRead) = _staticUintRead(token, abi.encodeWithSelector(0x70a08231, manager));
        (ok, err) = _v4Trade(V4_SELL, token, pool, seller, amount);
        (s.netIn, beforeRead) = _v4Kept(token, manager, before, beforeRead);
        // The manager's balance not read: what it kept is unknown, not none.
        if (!beforeRead) return (false, _probeError("the pool manager's balance could not be read"), 0);
        if (!ok || manager == address(0)) return (ok, err, s.netIn);
        (s.price1, s.liquidity1) = _v4State(manager, key);
        uint256 quoteAfter = _nativeOrBalance(pool.quote, seller);
        s.quoteOut = quoteAfter > s.quoteOut ? quoteAfter - s.quoteOut : 0;
        netIn = _v4Effective(key, key.currency0 == token, s);
    }

    /** What the manager kept of a sale, from its balance before; `read` false: a balance was not read (unknown). */
    function _v4Kept(address token, address manager, uint256 before, bool beforeRead) internal view returns (uint256 kept, bool read) {
        (uint256 afterBal, bool afterRead) = _staticUintRead(token, abi.encodeWithSelector(0x70a08231, manager));
        read = beforeRead && afterRead;
        kept = read && afterBal > before ? afterBal - before : 0;
    }

    /** An account's balance of a token, or of the native coin (address zero, V4's currency for it). */
    function _nativeOrBalance(address currency, address account) internal view returns (uint256) {
        return currency == address(0) ? account.balance : _balanceOf(currency, account);
    }

    /**
     * The tokens of a V4 sale that reached the pool as a trade, measured by the pool's own move.
     * Within one range of liquidity the √-price's move gives what the curve took in and paid out;
     * a dynamic LP fee (what the tokens in did not move the curve by) counts as lost, the key's
     * fixed fee does not (it is the pool's, like a V3 tier); a quote paid out by the curve that did
     * not reach the seller (a hook's cut of the output, afterSwap with a returned delta) scales the
     * rest down. Where the liquidity changed (the sale crossed a range), the manager's kept
     * balance stands alone.
     */
    function _v4Effective(ProbeV4Key memory key, bool tokenIs0, V4Sale memory s) internal pure returns (uint256) {
        if (s.liquidity0 == 0 || s.liquidity0 != s.liquidity1 || s.price0 == 0 || s.price1 == 0) return s.netIn;
        // A sale of currency0 lowers the price, of currency1 raises it; the other way, the move is not the sale's.
        if (tokenIs0 ? s.price1 > s.price0 : s.price1 < s.price0) return s.netIn;
        uint256 l = s.liquidity0;
        uint256 curveIn;
        uint256 curveOut;
        if (tokenIs0) {
            curveIn = (l << 96) / s.price1 - (l << 96) / s.price0;
            curveOut = _mulShift96(l, s.price0 - s.price1);
        } else {
            curveIn = _mulShift96(l, s.price1 - s.price0);
            curveOut = (l << 96) / s.price0 - (l << 96) / s.price1;
        }
        uint256 gross = curveIn;
        if (key.fee & V4_DYNAMIC_FEE_FLAG == 0) {
            if (key.fee >= V4_FEE_DENOMINATOR) return s.netIn;
            gross = curveIn * V4_FEE_DENOMINATOR / (V4_FEE_DENOMINATOR - key.fee);
        }
        uint256 effective = s.netIn;
        if (!_v4Near(gross, s.netIn) && gross < s.netIn) effective = gross;
        if (curveOut > 0 && !_v4Near(s.quoteOut, curveOut) && s.quoteOut < curveOut) effective = effective * s.quoteOut / curveOut;
        return effective;
    }

    /** Two amounts equal but for the rounding of the pool's math: within a millionth, or 2 units. */
    function _v4Near(uint256 a, uint256 b) internal pure returns (bool) {
        uint256 d = a > b ? a - b : b - a;
        uint256 big = a > b ? a : b;
        return d <= 2 || d <= big / V4_FEE_DENOMINATOR;
    }

    /** l · x / 2^96 without overflow for l < 2^128, x < 2^160. */
    function _mulShift96(uint256 l, uint256 x) internal pure returns (uint256) {
        return ((l * (x >> 64)) >> 32) + ((l * (x & type(uint64).max)) >> 96);
    }

    /** One unlock of the manager: a buy of exactly `amount` tokens for `who`, or a sale of `amount` by `who`. */
    function _v4Trade(uint8 mode, address token, Pool calldata pool, address who, uint256 amount) internal returns (bool, bytes memory) {
        (address manager,) = _v4Key(pool.pool);
        if (manager == address(0)) return (false, _probeError("no V4 pool key"));
        if (amount > uint256(type(int256).max)) return (false, _probeError("amount too large"));
        return _call(
            manager,
            0,
            abi.encodeCall(IProbeV4Manager.unlock, (abi.encode(V4Call(mode, pool.pool, token, pool.quote, who, amount)))),
            CALL_GAS,
            MAX_RETURN
        );
    }

    /** What one unlock of the manager does (see `_v4Trade`). */
    struct V4Call {
        uint8 mode;
        address holder;
        address token;
        address quote;
        address who;
        uint256 amount;
    }

    /** The manager's callback: swap, then settle and take (the manager reverts the unlock unless all is paid). */
    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        V4Call memory c = abi.decode(data, (V4Call));
        (address manager, ProbeV4Key memory key) = _v4Key(c.holder);
        if (msg.sender != manager || manager == address(0)) _bubble(_probeError("unlock callback from elsewhere"));
        (int128 tokenDelta, int128 quoteDelta) = _v4Swap(manager, key, c);
        if (c.mode == V4_SELL) {
            if (tokenDelta < 0) _v4PayToken(manager, c.token, c.who, uint256(uint128(-tokenDelta)));
            if (quoteDelta > 0) _v4Take(manager, c.quote, c.who, uint256(uint128(quoteDelta)));
        } else {
            if (quoteDelta < 0) _v4PayQuote(manager, c.quote, uint256(uint128(-quoteDelta)));
            if (tokenDelta > 0) _v4Take(manager, c.token, c.who, uint256(uint128(tokenDelta)));
        }
        return "";
    }

    /** The swap, with the hook live: the caller's deltas of the token and of the quote. */
    function _v4Swap(address manager, ProbeV4Key memory key, V4Call memory c) internal returns (int128 tokenDelta, int128 quoteDelta) {
        bool tokenIs0 = key.currency0 == c.token;
        bool zeroForOne = c.mode == V4_SELL ? tokenIs0 : !tokenIs0;
        ProbeV4SwapParams memory params = ProbeV4SwapParams({
            zeroForOne: zeroForOne,
            amountSpecified: c.mode == V4_SELL ? -int256(c.amount) : int256(c.amount),
            sqrtPriceLimitX96: zeroForOne ? MIN_SQRT_RATIO : MAX_SQRT_RATIO
        });
        (bool ok, bytes memory ret) = _call(manager, 0, abi.encodeCall(IProbeV4Manager.swap, (key, params, bytes(""))), gasleft(), V4_MAX_RETURN);
        if (!ok) _bubble(_v4Unwrap(ret));
        int256 delta = abi.decode(ret, (int256));
        (tokenDelta, quoteDelta) = tokenIs0 ? (int128(delta >> 128), int128(delta)) : (int128(delta), int128(delta >> 128));
    }

    /** The seller sends the tokens it owes to the manager itself, as a wallet's transfer. */
    function _v4PayToken(address manager, address token, address seller, uint256 owed) internal {
        IProbeV4Manager(manager).sync(token);
        (bool ok, bytes memory err) = _act(seller, token, abi.encodeWithSelector(0xa9059cbb, manager, owed));
        if (!ok) _bubble(err);
        if (_returnedFalse(err)) _bubble(_observed("the token's transfer returned false"));
        (ok, err) = _call(manager, 0, abi.encodeCall(IProbeV4Manager.settle, ()), gasleft(), V4_MAX_RETURN);
        if (!ok) _bubble(_v4Unwrap(err));
    }

    /** The probe pays the quote it owes: the native coin with settle, a token through sync, transfer, settle. */
    function _v4PayQuote(address manager, address quote, uint256 owed) internal {
        bool ok;
        bytes memory err;
        if (quote == address(0)) {
            (ok, err) = _call(manager, owed, abi.encodeCall(IProbeV4Manager.settle, ()), gasleft(), V4_MAX_RETURN);
            if (!ok) _bubble(_v4Unwrap(err));
            return;
        }
        (bool acquired, bytes memory why) = _acquire(quote, owed);
        if (!acquired) _bubble(why);
        IProbeV4Manager(manager).sync(quote);
        (ok,) = _call(quote, 0, abi.encodeWithSelector(0xa9059cbb, manager, owed), CALL_GAS, MAX_RETURN);
        if (!ok) _bubble(_probeError("quote transfer failed"));
        (ok, err) = _call(manager, 0, abi.encodeCall(IProbeV4Manager.settle, ()), gasleft(), V4_MAX_RETURN);
        if (!ok) _bubble(_v4Unwrap(err));
    }

    function _v4Take(address manager, address currency, address to, uint256 amount) internal {
        (bool ok, bytes memory err) = _call(manager, 0, abi.encodeCall(IProbeV4Manager.take, (currency, to, amount)), gasleft(), V4_MAX_RETURN);
        if (!ok) _bubble(_v4Unwrap(err));
    }

    /** A hook's or a token's own revert data out of the manager's WrappedError (kept whole otherwise). */
    function _v4Unwrap(bytes memory ret) internal pure returns (bytes memory) {
        if (ret.length < 4 + 128 || bytes4(ret) != V4_WRAPPED_ERROR) return _foreign(ret);
        bytes memory body = new bytes(ret.length - 4);
        for (uint256 i = 0; i < body.length; i++) body[i] = ret[i + 4];
        // A truncated WrappedError cannot be decoded: its raw bytes stand.
        (bool decoded, bytes memory reason) = _v4Reason(body);
        return decoded ? _foreign(reason) : _foreign(ret);
    }

    function _v4Reason(bytes memory body) internal pure returns (bool, bytes memory reason) {
        uint256 offset;
        uint256 len;
        assembly {
            offset := mload(add(body, 0x60))
        }
        if (offset + 32 > body.length) return (false, reason);
        assembly {
            len := mload(add(add(body, 0x20), offset))
        }
        if (offset + 32 + len > body.length) return (false, reason);
        reason = new bytes(len);
        for (uint256 i = 0; i < len; i++) reason[i] = body[offset + 32 + i];
        return (true, reason);
    }

    // ------------------------------------------------------------------------------------------
    // Low-level helpers
    // ------------------------------------------------------------------------------------------

    function _setContext(address weth, Route calldata route) internal {
        _tstore(T_WETH, uint256(uint160(weth)));
        _tstore(T_ROUTE, uint256(uint160(route.pool)));
        _tstore(T_ROUTE_KIND, route.kind);
        _tstore(T_ROUTE_FEE, route.feeBps);
    }

    function _reserves(address pair, address token) internal view returns (uint256 rToken, uint256 rOther, bool tokenIs0) {
        (uint112 r0, uint112 r1,) = IProbeV2Pair(pair).getReserves();
        tokenIs0 = IProbeV2Pair(pair).token0() == token;
        (rToken, rOther) = tokenIs0 ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
    }

    function _poolTokenBalance(Pool calldata pool, address token) internal view returns (uint256) {
        if (pool.kind == KIND_V4) return _v4TokenReserve(pool.pool, token);
        if (pool.kind == KIND_FOUR_MEME) return _balanceOf(token, _fourMemeManager(token, pool));
        if (pool.kind == 2 || _isSolidly(pool)) {
            (uint256 rToken,,) = _reserves(pool.pool, token);
            return rToken;
        }
        return _balanceOf(token, pool.pool);
    }

    function _act(address actor, address target, bytes memory data) internal returns (bool ok, bytes memory err) {
        (bool called, bytes memory ret) =
            _call(actor, 0, abi.encodeCall(IProbeActor.act, (target, data)), CALL_GAS + 100_000, MAX_RETURN + 128);
        if (!called || ret.length < 64) return (false, _probeError("actor call failed"));
        (ok, err) = abi.decode(ret, (bool, bytes));
    }

    /** A call whose return data is truncated to `maxReturn` bytes. */
    function _call(address target, uint256 value, bytes memory data, uint256 gasLimit, uint256 maxReturn)
        internal
        returns (bool ok, bytes memory ret)
    {
        assembly {
            ok := call(gasLimit, target, value, add(data, 0x20), mload(data), 0, 0)
            let size := returndatasize()
            if gt(size, maxReturn) { size := maxReturn }
            ret := mload(0x40)
            mstore(ret, size)
            returndatacopy(add(ret, 0x20), 0, size)
            mstore(0x40, add(add(ret, 0x20), and(add(size, 31), not(31))))
        }
    }

    /** Runs one experiment in a self-call; it reverts with RESULT ++ its encoded result. */
    function _isolate(bytes memory data) internal returns (bool done, bytes memory out) {
        if (gasleft() < MIN_EXPERIMENT_GAS) return (false, _probeError("gas budget exhausted"));
        bool ok;
        assembly {
            ok := call(gas(), address(), 0, add(data, 0x20), mload(data), 0, 0)
            let size := returndatasize()
            out := mload(0x40)
            mstore(out, size)
            returndatacopy(add(out, 0x20), 0, size)
            mstore(0x40, add(add(out, 0x20), and(add(size, 31), not(31))))
        }
        if (!ok && out.length >= 4 && bytes4(out) == RESULT) {
            assembly {
                let len := mload(out)
                out := add(out, 4)
                mstore(out, sub(len, 4))
            }
            return (true, out);
        }
        if (out.length >= 4 && bytes4(out) == ProbeFailure.selector) {
            if (out.length > MAX_RETURN) {
                assembly {
                    mstore(out, 320)
                }
            }
            return (false, out);
        }
        return (false, _probeError(out.length == 0 ? "experiment ran out of gas" : "experiment failed"));
    }

    function _decodeOutcome(bool done, bytes memory out) internal pure returns (Outcome memory o) {
        if (done) return abi.decode(out, (Outcome));
        o.err = out;
    }

    function _decodeSell(bool done, bytes memory out) internal pure returns (Outcome memory o, uint256 quoteOut) {
        if (done) return abi.decode(out, (Outcome, uint256));
        o.err = out;
    }

    function _finish(bytes memory encoded) internal pure {
        bytes memory r = abi.encodePacked(RESULT, encoded);
        assembly {
            revert(add(r, 0x20), mload(r))
        }
    }

    function _onlySelf() internal view {
        if (msg.sender != address(this)) _bubble(_probeError("internal"));
    }

    function _returnedFalse(bytes memory ret) internal pure returns (bool) {
        return ret.length >= 32 && abi.decode(ret, (uint256)) == 0;
    }

    function _substitute(bytes calldata data, uint256 amount) internal pure returns (bytes memory out) {
        out = data;
        for (uint256 i = 4; i + 32 <= out.length; i += 32) {
            bytes32 word;
            assembly {
                word := mload(add(add(out, 0x20), i))
            }
            if (word == AMOUNT_PLACEHOLDER) {
                assembly {
                    mstore(add(add(out, 0x20), i), amount)
                }
            }
        }
    }

    function _probeError(string memory reason) internal pure returns (bytes memory) {
        return abi.encodeWithSelector(ProbeFailure.selector, reason);
    }

    /** What the probe saw the token do wrong without a revert (a transfer that moved nothing). */
    function _observed(string memory what) internal pure returns (bytes memory) {
        return abi.encodeWithSignature("Error(string)", string.concat("tokenrisk: ", what));
    }

    /** Revert data from a token: kept, unless it carries the probe's own failure selector. */
    function _foreign(bytes memory ret) internal pure returns (bytes memory) {
        if (ret.length >= 4 && bytes4(ret) == ProbeFailure.selector) {
            return abi.encodeWithSignature("Error(string)", "reverted with the probe's failure selector");
        }
        return ret;
    }

    function _bubble(bytes memory ret) internal pure {
        assembly {
            revert(add(ret, 0x20), mload(ret))
        }
    }

    function _tload(uint256 slot) internal view returns (uint256 v) {
        assembly {
            v := tload(slot)
        }
    }

    function _tstore(uint256 slot, uint256 v) internal {
        assembly {
            tstore(slot, v)
        }
    }
}
