// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A bonding-curve launchpad of our own design behind four.meme's public trading interface: a
/// manager holds one curve per token (`buyTokenAMAP`, `sellToken`) and a helper answers
/// `getTokenInfo`, `tryBuy` and `trySell` about it, so that tokenrisk's four-meme venue can be
/// shown on the local chain. Nothing here is four.meme's code: only the function signatures and
/// the meaning of their fields are the public interface's.
///
/// Each curve sells the tokens its creator put on it ("offers") for the native coin on x·y = k,
/// x the offers left and y the native coin raised ("funds") plus a virtual reserve, so the first
/// tokens have a price. A fee (basis points of the native coin of each trade, never less than a
/// minimum) is kept by the manager. Sells pull the tokens with `transferFrom` (approve the manager
/// first) and price what arrived. Once a curve raised `maxFunds` it is closed ("liquidity added":
/// the token would move to a DEX pool) and trades on it revert.

interface IWorldFourMemeToken {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

contract WorldFourMemeManager {
    struct Curve {
        uint256 offers; // tokens left on the curve, for sale
        uint256 maxOffers; // tokens put on the curve at launch
        uint256 funds; // native coin raised (net of fees)
        uint256 launchTime;
        address creator;
        bool liquidityAdded; // graduated: the curve is closed
    }

    /// The native coin a curve must raise to graduate.
    uint256 public immutable maxFunds;
    /// The virtual native reserve every curve prices with.
    uint256 public immutable virtualFunds;
    /// The fee kept from the native coin of every trade, basis points, and its floor (wei).
    uint256 public immutable tradingFeeRate;
    uint256 public immutable minTradingFee;
    uint256 private constant BPS = 10_000;
    /// Prices are native wei per whole token (18 decimals).
    uint256 private constant WHOLE = 1e18;

    mapping(address => Curve) private _curves;
    uint256 public feesKept;

    event Launched(address indexed token, address indexed creator, uint256 tokens);
    /// Every buy and sell with the curve's state after it; nothing indexed (the token is the first word).
    event TokenPurchase(address token, address account, uint256 price, uint256 amount, uint256 cost, uint256 fee, uint256 offers, uint256 funds);
    event TokenSale(address token, address account, uint256 price, uint256 amount, uint256 cost, uint256 fee, uint256 offers, uint256 funds);
    event LiquidityAdded(address base, uint256 offers, address quote, uint256 funds);

    constructor(uint256 maxFunds_, uint256 virtualFunds_, uint256 tradingFeeRate_, uint256 minTradingFee_) {
        require(tradingFeeRate_ < BPS, "WorldFourMeme: fee too high");
        maxFunds = maxFunds_;
        virtualFunds = virtualFunds_;
        tradingFeeRate = tradingFeeRate_;
        minTradingFee = minTradingFee_;
    }

    function curveOf(address token) external view returns (Curve memory) {
        return _curves[token];
    }

    /// Puts `tokens` of `token` (pulled from the caller) on a new curve.
    function launch(address token, uint256 tokens) external {
        require(_curves[token].creator == address(0), "WorldFourMeme: already launched");
        uint256 before = IWorldFourMemeToken(token).balanceOf(address(this));
        require(IWorldFourMemeToken(token).transferFrom(msg.sender, address(this), tokens), "WorldFourMeme: transfer failed");
        uint256 received = IWorldFourMemeToken(token).balanceOf(address(this)) - before;
        require(received > 0, "WorldFourMeme: nothing received");
        _curves[token] = Curve(received, received, 0, block.timestamp, msg.sender, false);
        emit Launched(token, msg.sender, received);
    }

    /// The curve's price now: native wei per whole token.
    function lastPrice(address token) public view returns (uint256) {
        Curve storage c = _curves[token];
        return c.offers == 0 ? 0 : (virtualFunds + c.funds) * WHOLE / c.offers;
    }

    /// The fee kept from `amount` of the native coin.
    function feeOf(uint256 amount) public view returns (uint256 fee) {
        fee = amount * tradingFeeRate / BPS;
        if (fee < minTradingFee) fee = minTradingFee;
    }

    /// The tokens that `funds` of the native coin (fee included) buy now, and the fee.
    function buyQuote(address token, uint256 funds) public view returns (uint256 amount, uint256 fee) {
        Curve storage c = _curves[token];
        fee = feeOf(funds);
        if (funds <= fee || c.offers == 0) return (0, fee);
        uint256 net = funds - fee;
        amount = c.offers * net / (virtualFunds + c.funds + net);
    }

    /// The native coin (fee included) that buys `amount` tokens now: what the curve takes, and the fee.
    function buyCost(address token, uint256 amount) public view returns (uint256 cost, uint256 fee) {
        Curve storage c = _curves[token];
        require(amount < c.offers, "WorldFourMeme: not enough tokens on the curve");
        cost = _divUp((virtualFunds + c.funds) * amount, c.offers - amount);
        fee = _divUp(cost * BPS, BPS - tradingFeeRate) - cost;
        if (fee < minTradingFee) fee = minTradingFee;
    }

    /// The native coin that `amount` tokens arriving at the curve pay now (after the fee), and the fee.
    function sellQuote(address token, uint256 amount) public view returns (uint256 funds, uint256 fee) {
        Curve storage c = _curves[token];
        uint256 gross = (virtualFunds + c.funds) * amount / (c.offers + amount);
        if (gross > c.funds) gross = c.funds;
        fee = feeOf(gross);
        funds = gross > fee ? gross - fee : 0;
    }

    /// Buys as many tokens as `funds` (fee included, paid as the call's value) buy, for `to`.
    function buyTokenAMAP(address token, address to, uint256 funds, uint256 minAmount) external payable {
        Curve storage c = _curves[token];
        require(c.creator != address(0) && !c.liquidityAdded, "WorldFourMeme: no open curve");
        require(msg.value == funds && funds > 0, "WorldFourMeme: value must equal funds");
        (uint256 amount, uint256 fee) = buyQuote(token, funds);
        require(amount > 0 && amount >= minAmount, "WorldFourMeme: too little out");
        feesKept += fee;
        c.offers -= amount;
        c.funds += funds - fee;
        require(IWorldFourMemeToken(token).transfer(to, amount), "WorldFourMeme: transfer failed");
        emit TokenPurchase(token, to, lastPrice(token), amount, funds - fee, fee, c.offers, c.funds);
        if (c.funds >= maxFunds) {
            c.liquidityAdded = true;
            emit LiquidityAdded(token, c.offers, address(0), c.funds);
        }
    }

    /// Sells `amount` tokens (pulled from the caller after its approval) back to the curve.
    function sellToken(address token, uint256 amount) external {
        Curve storage c = _curves[token];
        require(c.creator != address(0) && !c.liquidityAdded, "WorldFourMeme: no open curve");
        uint256 before = IWorldFourMemeToken(token).balanceOf(address(this));
        require(IWorldFourMemeToken(token).transferFrom(msg.sender, address(this), amount), "WorldFourMeme: transfer failed");
        uint256 received = IWorldFourMemeToken(token).balanceOf(address(this)) - before;
        uint256 gross = (virtualFunds + c.funds) * received / (c.offers + received);
        require(gross <= c.funds, "WorldFourMeme: the curve holds too little");
        uint256 fee = feeOf(gross);
        require(gross > fee, "WorldFourMeme: too little out");
        feesKept += fee;
        c.offers += received;
        c.funds -= gross;
        (bool sent,) = msg.sender.call{value: gross - fee}("");
        require(sent, "WorldFourMeme: payment failed");
        emit TokenSale(token, msg.sender, lastPrice(token), received, gross - fee, fee, c.offers, c.funds);
    }

    function _divUp(uint256 a, uint256 b) private pure returns (uint256) {
        return a == 0 ? 0 : (a - 1) / b + 1;
    }
}

/// The helper that answers what the manager's curves are, in four.meme's helper interface.
contract WorldFourMemeHelper {
    /// The version of the manager's interface (four.meme's TokenManager2 answers 2).
    uint256 private constant MANAGER_VERSION = 2;
    WorldFourMemeManager public immutable manager;

    constructor(WorldFourMemeManager manager_) {
        manager = manager_;
    }

    /// getTokenInfo's answer: a struct of static fields is encoded as the twelve words themselves.
    struct TokenInfo {
        uint256 version;
        address tokenManager;
        address quote;
        uint256 lastPrice;
        uint256 tradingFeeRate;
        uint256 minTradingFee;
        uint256 launchTime;
        uint256 offers;
        uint256 maxOffers;
        uint256 funds;
        uint256 maxFunds;
        bool liquidityAdded;
    }

    /// The token's curve; every field zero for a token the manager never launched.
    function getTokenInfo(address token) external view returns (TokenInfo memory info) {
        WorldFourMemeManager.Curve memory c = manager.curveOf(token);
        if (c.creator == address(0)) return info;
        info.version = MANAGER_VERSION;
        info.tokenManager = address(manager);
        info.lastPrice = manager.lastPrice(token);
        info.tradingFeeRate = manager.tradingFeeRate();
        info.minTradingFee = manager.minTradingFee();
        info.launchTime = c.launchTime;
        info.offers = c.offers;
        info.maxOffers = c.maxOffers;
        info.funds = c.funds;
        info.maxFunds = manager.maxFunds();
        info.liquidityAdded = c.liquidityAdded;
    }

    /// A buy of `amount` tokens (when not zero) or for `funds` of the native coin: what it gives and what to send.
    function tryBuy(address token, uint256 amount, uint256 funds)
        external
        view
        returns (
            address tokenManager,
            address quote,
            uint256 estimatedAmount,
            uint256 estimatedCost,
            uint256 estimatedFee,
            uint256 amountMsgValue,
            uint256 amountApproval,
            uint256 amountFunds
        )
    {
        tokenManager = address(manager);
        if (amount > 0) {
            (estimatedCost, estimatedFee) = manager.buyCost(token, amount);
            estimatedAmount = amount;
        } else {
            (estimatedAmount, estimatedFee) = manager.buyQuote(token, funds);
            estimatedCost = funds > estimatedFee ? funds - estimatedFee : 0;
        }
        amountMsgValue = estimatedCost + estimatedFee;
        amountFunds = amountMsgValue;
        (quote, amountApproval) = (address(0), 0);
    }

    /// A sell of `amount` tokens: the native coin it pays and the fee.
    function trySell(address token, uint256 amount) external view returns (address tokenManager, address quote, uint256 funds, uint256 fee) {
        (funds, fee) = manager.sellQuote(token, amount);
        return (address(manager), address(0), funds, fee);
    }
}
