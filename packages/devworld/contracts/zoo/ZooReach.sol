// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ZooPooledToken} from "./ZooBase.sol";
import {ZooTaxBase} from "./ZooTax.sol";

/// Five fees (percent) summed on every buy and sell and paid to a marketing wallet the owner can
/// replace. No setter is capped: one fee at 95 with the others at 1 takes 99 % of every trade, and
/// past 100 % in all the subtraction reverts, so that every trade fails.
abstract contract ZooFeeStackBase is ZooPooledToken {
    uint256 public marketingFee = 1;
    uint256 public liquidityFee = 1;
    uint256 public devFee = 1;
    uint256 public rewardFee = 1;
    uint256 public buybackFee = 1;
    address public marketingWallet;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address wallet)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {
        marketingWallet = wallet;
    }

    /// The largest value a fee may be set to.
    function _feeCap() internal pure virtual returns (uint256);

    function _setFee(uint256 v) internal view onlyOwner returns (uint256) {
        require(v <= _feeCap(), "ZooFeeStack: fee above its cap");
        return v;
    }

    function setMarketingFee(uint256 v) external {
        marketingFee = _setFee(v);
    }

    function setLiquidityFee(uint256 v) external {
        liquidityFee = _setFee(v);
    }

    function setDevFee(uint256 v) external {
        devFee = _setFee(v);
    }

    function setRewardFee(uint256 v) external {
        rewardFee = _setFee(v);
    }

    function setBuybackFee(uint256 v) external {
        buybackFee = _setFee(v);
    }

    function setMarketingWallet(address wallet) external onlyOwner {
        marketingWallet = wallet;
    }

    function totalFee() public view returns (uint256) {
        return marketingFee + liquidityFee + devFee + rewardFee + buybackFee;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (!_isTrade(from, to) || (!isPool[from] && !isPool[to])) {
            _move(from, to, value);
            return;
        }
        uint256 fee = (value * totalFee()) / 100;
        if (fee > 0) _move(from, marketingWallet, fee);
        _move(from, to, value - fee);
    }
}

/// Uncapped fee setters.
contract ZooFeeStack is ZooFeeStackBase {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address wallet)
        ZooFeeStackBase(name_, symbol_, supply, factory, quotes, wallet)
    {}

    function _feeCap() internal pure override returns (uint256) {
        return type(uint256).max;
    }
}

/// The same five fees, each capped at 5 %: 25 % at most, all together.
contract ZooFeeStackCapped is ZooFeeStackBase {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address wallet)
        ZooFeeStackBase(name_, symbol_, supply, factory, quotes, wallet)
    {}

    function _feeCap() internal pure override returns (uint256) {
        return 5;
    }
}

/// 3 / 7 / 1 % taxes; closeTrade() turns buys and sells into a 99 % tax (trading closed by
/// another name), openTrade() back.
contract ZooCloseTrade is ZooTaxBase {
    uint256 public constant CLOSED_TAX_BPS = 9_900;
    bool public tradeClosed;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address feeWallet)
        ZooTaxBase(name_, symbol_, supply, factory, quotes, feeWallet)
    {}

    function closeTrade() external onlyOwner {
        tradeClosed = true;
    }

    function openTrade() external onlyOwner {
        tradeClosed = false;
    }

    function _taxBps(address from, address to) internal view override returns (uint256) {
        if (tradeClosed && (isPool[from] || isPool[to])) return CLOSED_TAX_BPS;
        return _pickTax(from, to, 300, 700, 100);
    }
}

/// A sale moves at most 90 % of the seller's balance: asked for more, it silently moves 90 %, no
/// revert. A tenth always stays behind.
contract ZooClamp90 is ZooPooledToken {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function _update(address from, address to, uint256 value) internal override {
        if (_isTrade(from, to) && isPool[to]) {
            uint256 most = (balanceOf(from) * 9) / 10;
            if (value > most) value = most;
        }
        _move(from, to, value);
    }
}
