// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ZooPooledToken} from "./ZooBase.sol";

/// Where the fee-forwarding token reports its fees: the external call made during a transfer.
interface IZooFeeSink {
    function onTokenFee(uint256 amount) external;
}

/// Buy, sell and transfer taxes in basis points, taken from the amount moved and credited to
/// `feeRecipient` (fixed at construction). Buys are transfers out of one of the token's pools,
/// sells are transfers into one. The deployer pays no tax (see ZooPooledToken).
abstract contract ZooTaxBase is ZooPooledToken {
    uint256 internal constant BPS = 10_000;
    address public immutable feeRecipient;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address feeRecipient_)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {
        feeRecipient = feeRecipient_;
    }

    /// The tax of one transfer, in basis points.
    function _taxBps(address from, address to) internal view virtual returns (uint256);

    /// Called after a fee was credited.
    function _afterFee(uint256 fee) internal virtual {}

    function _update(address from, address to, uint256 value) internal override {
        if (!_isTrade(from, to)) {
            _move(from, to, value);
            return;
        }
        uint256 fee = (value * _taxBps(from, to)) / BPS;
        if (fee > 0) {
            _move(from, feeRecipient, fee);
            _afterFee(fee);
        }
        _move(from, to, value - fee);
    }

    function _pickTax(address from, address to, uint256 buyBps, uint256 sellBps, uint256 transferBps)
        internal
        view
        returns (uint256)
    {
        if (isPool[from]) return buyBps;
        if (isPool[to]) return sellBps;
        return transferBps;
    }
}

/// Fixed taxes that no one can change: 3 % on buys, 7 % on sells, 1 % on wallet-to-wallet
/// transfers.
abstract contract ZooFixedTax is ZooTaxBase {
    uint256 public constant BUY_TAX_BPS = 300;
    uint256 public constant SELL_TAX_BPS = 700;
    uint256 public constant TRANSFER_TAX_BPS = 100;

    function _taxBps(address from, address to) internal view virtual override returns (uint256) {
        return _pickTax(from, to, BUY_TAX_BPS, SELL_TAX_BPS, TRANSFER_TAX_BPS);
    }
}

/// The fixed 3 / 7 / 1 % taxes, paid to a fee wallet.
contract ZooTax is ZooFixedTax {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address feeWallet)
        ZooTaxBase(name_, symbol_, supply, factory, quotes, feeWallet)
    {}
}

/// The same fixed taxes, but the fees go to a contract that the token calls on every taxed
/// transfer: an external call in the middle of a transfer.
contract ZooFeeForward is ZooFixedTax {
    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address feeSink)
        ZooTaxBase(name_, symbol_, supply, factory, quotes, feeSink)
    {}

    function _afterFee(uint256 fee) internal override {
        IZooFeeSink(feeRecipient).onTokenFee(fee);
    }
}

/// Receives the fee-forwarding token's fees and keeps a tally per token.
contract ZooFeeCollector is IZooFeeSink {
    event FeeReceived(address indexed token, uint256 amount);

    mapping(address => uint256) public feesOf;

    function onTokenFee(uint256 amount) external {
        feesOf[msg.sender] += amount;
        emit FeeReceived(msg.sender, amount);
    }
}

/// Starts at 3 / 7 / 1 %, and the owner can set any of the three taxes for everyone, up to 100 %.
contract ZooTaxModifiable is ZooTaxBase {
    uint256 public buyTaxBps = 300;
    uint256 public sellTaxBps = 700;
    uint256 public transferTaxBps = 100;

    event TaxesChanged(uint256 buyTaxBps, uint256 sellTaxBps, uint256 transferTaxBps);

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address feeWallet)
        ZooTaxBase(name_, symbol_, supply, factory, quotes, feeWallet)
    {}

    function setTaxes(uint256 buyBps, uint256 sellBps, uint256 transferBps) external onlyOwner {
        require(buyBps <= BPS && sellBps <= BPS && transferBps <= BPS, "ZooTaxModifiable: tax above 100%");
        buyTaxBps = buyBps;
        sellTaxBps = sellBps;
        transferTaxBps = transferBps;
        emit TaxesChanged(buyBps, sellBps, transferBps);
    }

    function _taxBps(address from, address to) internal view override returns (uint256) {
        return _pickTax(from, to, buyTaxBps, sellTaxBps, transferTaxBps);
    }
}

/// The fixed 3 / 7 / 1 % for everyone, plus an extra tax the owner can put on any single address
/// (the trader: the buyer on a buy, the sender otherwise), up to 100 % in total.
contract ZooTaxPerAddress is ZooFixedTax {
    mapping(address => uint256) public extraTaxBps;

    event AccountTaxChanged(address indexed account, uint256 extraTaxBps);

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address feeWallet)
        ZooTaxBase(name_, symbol_, supply, factory, quotes, feeWallet)
    {}

    function setAccountTax(address account, uint256 bps) external onlyOwner {
        require(bps <= BPS, "ZooTaxPerAddress: tax above 100%");
        extraTaxBps[account] = bps;
        emit AccountTaxChanged(account, bps);
    }

    function _taxBps(address from, address to) internal view override returns (uint256) {
        address trader = isPool[from] ? to : from;
        uint256 total = super._taxBps(from, to) + extraTaxBps[trader];
        return total > BPS ? BPS : total;
    }
}
