// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A bonding-curve launchpad of our own design: a token's creator puts most of its supply on a
/// curve, and anyone buys from it or sells back to it for the native coin, until the native coin
/// it raised reaches the graduation target (then the curve closes: the token would move to a DEX).
///
/// The curve is x·y = k on the tokens it holds (x) and the native coin it raised plus a virtual
/// reserve (y), so that the first tokens have a price; a fee in basis points is kept from the
/// native coin of every trade. Sells pull the tokens with `transferFrom` (approve the launchpad
/// first) and count what arrived, so that a token taking a share of its transfers is priced on
/// what the curve received.

interface IWorldLaunchToken {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

contract WorldLaunchpad {
    struct Curve {
        uint256 tokenReserve; // tokens on the curve, for sale
        uint256 nativeReserve; // native coin raised (real), net of fees
        uint256 virtualNative; // the curve's virtual native reserve, fixed at launch
        address creator;
        bool graduated;
    }

    /// The native coin a curve must raise to graduate.
    uint256 public immutable graduationTarget;
    /// The virtual native reserve every curve starts with.
    uint256 public immutable virtualNative;
    /// The fee kept from the native coin of every trade, basis points.
    uint256 public immutable feeBps;
    uint256 private constant BPS = 10_000;

    mapping(address => Curve) public curves;
    address[] public launched;
    uint256 public fees;

    event Launched(address indexed token, address indexed creator, uint256 tokens);
    /// Every trade, with the curve's state after it (its price: (virtualNative + nativeReserve) /
    /// tokenReserve). The token is in the data too, so that the data alone says whose curve it is.
    event Trade(
        address indexed token,
        address indexed trader,
        address curveToken,
        bool buy,
        uint256 tokens,
        uint256 native,
        uint256 tokenReserve,
        uint256 nativeReserve,
        uint256 curveVirtualNative
    );
    event Graduated(address indexed token, uint256 raised);

    constructor(uint256 graduationTarget_, uint256 virtualNative_, uint256 feeBps_) {
        require(feeBps_ < BPS, "WorldLaunchpad: fee too high");
        graduationTarget = graduationTarget_;
        virtualNative = virtualNative_;
        feeBps = feeBps_;
    }

    function launchedLength() external view returns (uint256) {
        return launched.length;
    }

    /// Puts `tokens` of `token` (pulled from the caller) on a new curve.
    function launch(address token, uint256 tokens) external {
        require(curves[token].creator == address(0), "WorldLaunchpad: already launched");
        uint256 before = IWorldLaunchToken(token).balanceOf(address(this));
        require(IWorldLaunchToken(token).transferFrom(msg.sender, address(this), tokens), "WorldLaunchpad: transfer failed");
        uint256 received = IWorldLaunchToken(token).balanceOf(address(this)) - before;
        require(received > 0, "WorldLaunchpad: nothing received");
        curves[token] = Curve(received, 0, virtualNative, msg.sender, false);
        launched.push(token);
        emit Launched(token, msg.sender, received);
    }

    /// The native coin (fee included) that buys `tokensOut` tokens from the curve now.
    function buyCost(address token, uint256 tokensOut) public view returns (uint256) {
        Curve storage c = curves[token];
        require(c.creator != address(0) && !c.graduated, "WorldLaunchpad: no open curve");
        require(tokensOut < c.tokenReserve, "WorldLaunchpad: not enough tokens on the curve");
        uint256 y = c.virtualNative + c.nativeReserve;
        uint256 net = _divUp(y * tokensOut, c.tokenReserve - tokensOut);
        return _divUp(net * BPS, BPS - feeBps);
    }

    /// The tokens that `nativeIn` (fee included) buys from the curve now.
    function buyQuote(address token, uint256 nativeIn) public view returns (uint256) {
        Curve storage c = curves[token];
        uint256 net = nativeIn - nativeIn * feeBps / BPS;
        uint256 y = c.virtualNative + c.nativeReserve;
        return c.tokenReserve * net / (y + net);
    }

    /// The native coin (after the fee) that `tokensIn` tokens arriving at the curve pay now.
    function sellQuote(address token, uint256 tokensIn) public view returns (uint256) {
        Curve storage c = curves[token];
        uint256 y = c.virtualNative + c.nativeReserve;
        uint256 gross = y * tokensIn / (c.tokenReserve + tokensIn);
        if (gross > c.nativeReserve) gross = c.nativeReserve;
        return gross - gross * feeBps / BPS;
    }

    /// Buys tokens for `to` with the native coin sent; reverts below `minOut`.
    function buy(address token, address to, uint256 minOut) external payable returns (uint256 out) {
        Curve storage c = curves[token];
        require(c.creator != address(0) && !c.graduated, "WorldLaunchpad: no open curve");
        require(msg.value > 0, "WorldLaunchpad: nothing paid");
        out = buyQuote(token, msg.value);
        require(out > 0 && out >= minOut, "WorldLaunchpad: too little out");
        uint256 fee = msg.value * feeBps / BPS;
        fees += fee;
        c.tokenReserve -= out;
        c.nativeReserve += msg.value - fee;
        require(IWorldLaunchToken(token).transfer(to, out), "WorldLaunchpad: transfer failed");
        emit Trade(token, msg.sender, token, true, out, msg.value, c.tokenReserve, c.nativeReserve, c.virtualNative);
        if (c.nativeReserve >= graduationTarget) {
            c.graduated = true;
            emit Graduated(token, c.nativeReserve);
        }
    }

    /// Sells `amount` tokens (pulled from the caller) back to the curve; reverts below `minOut`.
    function sell(address token, uint256 amount, uint256 minOut) external returns (uint256 out) {
        Curve storage c = curves[token];
        require(c.creator != address(0) && !c.graduated, "WorldLaunchpad: no open curve");
        uint256 before = IWorldLaunchToken(token).balanceOf(address(this));
        require(IWorldLaunchToken(token).transferFrom(msg.sender, address(this), amount), "WorldLaunchpad: transfer failed");
        uint256 received = IWorldLaunchToken(token).balanceOf(address(this)) - before;
        uint256 y = c.virtualNative + c.nativeReserve;
        uint256 gross = y * received / (c.tokenReserve + received);
        require(gross <= c.nativeReserve, "WorldLaunchpad: the curve holds too little");
        uint256 fee = gross * feeBps / BPS;
        out = gross - fee;
        require(out > 0 && out >= minOut, "WorldLaunchpad: too little out");
        fees += fee;
        c.tokenReserve += received;
        c.nativeReserve -= gross;
        (bool sent,) = msg.sender.call{value: out}("");
        require(sent, "WorldLaunchpad: payment failed");
        emit Trade(token, msg.sender, token, false, received, out, c.tokenReserve, c.nativeReserve, c.virtualNative);
    }

    function _divUp(uint256 a, uint256 b) private pure returns (uint256) {
        return a == 0 ? 0 : (a - 1) / b + 1;
    }
}
