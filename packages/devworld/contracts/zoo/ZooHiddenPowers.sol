// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ZooToken, ZooPooledToken} from "./ZooBase.sol";
import {IZooFeeSink, ZooFixedTax, ZooTaxBase} from "./ZooTax.sol";

// Powers that hide from a reading of names and of the total supply, each beside a legitimate
// look-alike: a mint written straight into a balance vs. an airdrop paid by the owner; an uncapped
// tax setter vs. one capped at 10 %; a minter the owner appoints vs. one fixed at deployment; a
// sell hook the owner can point at a contract that reverts vs. one whose failure is ignored; a
// blacklist under an innocent name vs. a fee-exemption list; a swap-back that breaks sells once the
// contract holds enough tokens vs. one that works; a maximum transaction the owner can set to zero
// vs. the fixed one of ZooMaxTx; a mint to an account named only in its Transfer event vs. the
// owner paying that account; a switch that stops sales vs. a launch that opens trading for good.

/// The owner "rebalances": it adds to its own balance by writing the balance mapping in assembly.
/// The total supply does not move and no Transfer is emitted: a mint that supply checks miss.
contract ZooSelfCredit is ZooToken {
    constructor(string memory name_, string memory symbol_, uint256 supply) {
        _initToken(name_, symbol_, 18, supply, msg.sender);
    }

    function rebalance(uint256 amount) external onlyOwner {
        assembly {
            mstore(0, caller())
            mstore(32, _balances.slot)
            let slot := keccak256(0, 64)
            sstore(slot, add(sload(slot), amount))
        }
    }
}

/// The owner can airdrop, paying every recipient out of its own balance: no tokens are created
/// and no one else's balance moves.
contract ZooAirdrop is ZooToken {
    constructor(string memory name_, string memory symbol_, uint256 supply) {
        _initToken(name_, symbol_, 18, supply, msg.sender);
    }

    function airdrop(address[] calldata recipients, uint256 amount) external onlyOwner {
        for (uint256 i = 0; i < recipients.length; i++) _transfer(msg.sender, recipients[i], amount);
    }
}

/// Starts at 3 / 7 / 1 %; the owner can change the taxes for everyone, but never above 10 %.
contract ZooTaxCapped is ZooTaxBase {
    uint256 public constant MAX_TAX_BPS = 1_000;
    uint256 public buyTaxBps = 300;
    uint256 public sellTaxBps = 700;
    uint256 public transferTaxBps = 100;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address feeWallet)
        ZooTaxBase(name_, symbol_, supply, factory, quotes, feeWallet)
    {}

    function setTaxes(uint256 buyBps, uint256 sellBps, uint256 transferBps) external onlyOwner {
        require(buyBps <= MAX_TAX_BPS && sellBps <= MAX_TAX_BPS && transferBps <= MAX_TAX_BPS, "ZooTaxCapped: tax above 10%");
        buyTaxBps = buyBps;
        sellTaxBps = sellBps;
        transferTaxBps = transferBps;
    }

    function _taxBps(address from, address to) internal view override returns (uint256) {
        return _pickTax(from, to, buyTaxBps, sellTaxBps, transferTaxBps);
    }
}

/// The owner appoints a vault; the vault mints at will. Neither call alone raises the supply.
contract ZooVaultMint is ZooToken {
    address public vault;

    constructor(string memory name_, string memory symbol_, uint256 supply) {
        _initToken(name_, symbol_, 18, supply, msg.sender);
    }

    function setVault(address vault_) external onlyOwner {
        vault = vault_;
    }

    function vaultMint(address to, uint256 amount) external {
        require(msg.sender == vault, "ZooVaultMint: not the vault");
        _mint(to, amount);
    }
}

/// A minter fixed at deployment (a contract with no way to call it): no one the owner chooses can
/// ever mint.
contract ZooFixedMinter is ZooToken {
    address public immutable minter;

    constructor(string memory name_, string memory symbol_, uint256 supply, address minter_) {
        _initToken(name_, symbol_, 18, supply, msg.sender);
        minter = minter_;
    }

    function minterMint(address to, uint256 amount) external {
        require(msg.sender == minter, "ZooFixedMinter: not the minter");
        _mint(to, amount);
    }
}

/// Every sale is reported to a hook contract (like a router's swap of the fees) that the owner can
/// replace; a hook that reverts makes every sale revert.
contract ZooSellHookTrap is ZooPooledToken {
    address public hook;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address hook_)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {
        hook = hook_;
    }

    function setHook(address hook_) external onlyOwner {
        hook = hook_;
    }

    function _update(address from, address to, uint256 value) internal override {
        _move(from, to, value);
        if (_isTrade(from, to) && isPool[to]) IZooFeeSink(hook).onTokenFee(value);
    }
}

/// The same replaceable hook, but a hook that fails is ignored: no hook can stop a sale.
contract ZooSellHookSafe is ZooPooledToken {
    address public hook;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address hook_)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {
        hook = hook_;
    }

    function setHook(address hook_) external onlyOwner {
        hook = hook_;
    }

    function _update(address from, address to, uint256 value) internal override {
        _move(from, to, value);
        if (_isTrade(from, to) && isPool[to]) {
            try IZooFeeSink(hook).onTokenFee(value) {} catch {}
        }
    }
}

/// "Reward exclusion" that is a blacklist: an excluded address can neither send nor receive.
contract ZooQuietList is ZooToken {
    mapping(address => bool) public rewardExcluded;

    constructor(string memory name_, string memory symbol_, uint256 supply) {
        _initToken(name_, symbol_, 18, supply, msg.sender);
    }

    function setRewardExclusion(address account, bool excluded) external onlyOwner {
        rewardExcluded[account] = excluded;
    }

    function _update(address from, address to, uint256 value) internal override {
        require(!rewardExcluded[from] && !rewardExcluded[to], "ZooQuietList: excluded");
        _move(from, to, value);
    }
}

/// The fixed 3 / 7 / 1 % taxes, from which the owner can exempt chosen addresses: they pay none,
/// everyone else pays as before.
contract ZooFeeExempt is ZooFixedTax {
    mapping(address => bool) public feeExempt;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address feeWallet)
        ZooTaxBase(name_, symbol_, supply, factory, quotes, feeWallet)
    {}

    function setFeeExempt(address account, bool exempt) external onlyOwner {
        feeExempt[account] = exempt;
    }

    function _taxBps(address from, address to) internal view override returns (uint256) {
        address trader = isPool[from] ? to : from;
        if (feeExempt[trader]) return 0;
        return super._taxBps(from, to);
    }
}

/// Once the contract's own balance reaches its swap-back threshold, every sale tries to swap it
/// back, and that swap always fails: sales work at first and stop for good later.
contract ZooSwapBackTrap is ZooPooledToken {
    uint256 public immutable swapThreshold;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {
        swapThreshold = supply / 2_000;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (_isTrade(from, to) && isPool[to] && _balances[address(this)] >= swapThreshold) revert("ZooSwapBackTrap: swap back failed");
        _move(from, to, value);
    }
}

/// Once the contract's own balance reaches its swap-back threshold, a sale sends it to the fee
/// wallet, and the sale goes on.
contract ZooSwapBack is ZooPooledToken {
    uint256 public immutable swapThreshold;
    address public immutable feeWallet;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes, address feeWallet_)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {
        swapThreshold = supply / 2_000;
        feeWallet = feeWallet_;
    }

    function _update(address from, address to, uint256 value) internal override {
        uint256 held = _balances[address(this)];
        if (_isTrade(from, to) && isPool[to] && held >= swapThreshold) _move(address(this), feeWallet, held);
        _move(from, to, value);
    }
}

/// A maximum transaction (1 % of the supply at first) that the owner can set to anything, zero
/// included: then no one but the deployer can buy, sell or transfer.
contract ZooMaxTxAdjustable is ZooPooledToken {
    uint256 public maxTransactionAmount;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {
        maxTransactionAmount = supply / 100;
    }

    function setMaxTransactionAmount(uint256 amount) external onlyOwner {
        maxTransactionAmount = amount;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (_isTrade(from, to)) require(value <= maxTransactionAmount, "ZooMaxTxAdjustable: amount exceeds the maximum transaction");
        _move(from, to, value);
    }
}

/// Keeps a list of everyone who ever received tokens, as dividend tokens do.
abstract contract ZooHolderList is ZooToken {
    address[] internal _holders;
    mapping(address => bool) internal _listed;

    function _update(address from, address to, uint256 value) internal virtual override {
        if (to != address(0) && !_listed[to]) {
            _listed[to] = true;
            _holders.push(to);
        }
        super._update(from, to, value);
    }

    function holderCount() external view returns (uint256) {
        return _holders.length;
    }
}

/// "Sweeps dust": the owner walks its holder list and moves every balance of an ordinary account
/// (no code: the pools are left alone, so the price does not move) to itself. The accounts named
/// nowhere in the call, the code or the fixed storage slots: only the holders of record know them.
contract ZooHolderSweep is ZooHolderList {
    constructor(string memory name_, string memory symbol_, uint256 supply) {
        _initToken(name_, symbol_, 18, supply, msg.sender);
    }

    function sweepDust() external onlyOwner {
        for (uint256 i = 0; i < _holders.length; i++) {
            address h = _holders[i];
            if (h == msg.sender || h.code.length > 0) continue;
            uint256 b = _balances[h];
            if (b > 0) _move(h, msg.sender, b);
        }
    }
}

/// The look-alike: the owner walks the same list and pays each ordinary holder a reward out of its
/// own balance. Holders only gain; nothing is created.
contract ZooHolderReward is ZooHolderList {
    constructor(string memory name_, string memory symbol_, uint256 supply) {
        _initToken(name_, symbol_, 18, supply, msg.sender);
    }

    function distributeRewards(uint256 each) external onlyOwner {
        for (uint256 i = 0; i < _holders.length; i++) {
            address h = _holders[i];
            if (h == msg.sender || h.code.length > 0) continue;
            _move(msg.sender, h, each);
        }
    }
}

/// An account kept only as a masked number: neither its storage nor its code shows an address.
abstract contract ZooMaskedReserve is ZooToken {
    uint256 private constant MASK = 0x7a3c91e5d4b2f0681a9c3e5f7b1d2c4e6f8a0b1c3d5e7f9a2b4c6d8e0f1a3b5c;
    uint256 private _reserveKey;

    constructor(string memory name_, string memory symbol_, uint256 supply, address reserve) {
        _initToken(name_, symbol_, 18, supply, msg.sender);
        _reserveKey = uint256(uint160(reserve)) ^ MASK;
    }

    function _reserve() internal view returns (address) {
        return address(uint160(_reserveKey ^ MASK));
    }
}

/// The owner "seeds the reserve": it credits the masked account by writing the balance mapping,
/// leaving the supply alone. The Transfer it emits (from the token itself, which loses nothing) is
/// the only place the account is named: a mint to an account nobody would think to watch.
contract ZooReserveCredit is ZooMaskedReserve {
    constructor(string memory name_, string memory symbol_, uint256 supply, address reserve)
        ZooMaskedReserve(name_, symbol_, supply, reserve)
    {}

    function seedReserve(uint256 amount) external onlyOwner {
        address r = _reserve();
        _balances[r] += amount;
        emit Transfer(address(this), r, amount);
    }
}

/// The look-alike: the owner funds the same masked reserve out of its own balance. Nothing is created.
contract ZooReserveFund is ZooMaskedReserve {
    constructor(string memory name_, string memory symbol_, uint256 supply, address reserve)
        ZooMaskedReserve(name_, symbol_, supply, reserve)
    {}

    function fundReserve(uint256 amount) external onlyOwner {
        _move(msg.sender, _reserve(), amount);
    }
}

/// Sales into a pool work while `swapEnabled` is on, and the owner can switch it off at any time:
/// an innocent "swap" setting that is a switch for every holder's sales, a trap that springs only
/// after the owner's toggle.
contract ZooSellSwitch is ZooPooledToken {
    bool public swapEnabled = true;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function setSwapEnabled(bool on) external onlyOwner {
        swapEnabled = on;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (_isTrade(from, to) && isPool[to]) require(swapEnabled, "ZooSellSwitch: swap disabled");
        _move(from, to, value);
    }
}

/// The look-alike: trading is closed at deployment and the owner opens it once, for good; no call
/// closes it again.
contract ZooLaunchOnce is ZooPooledToken {
    bool public tradingOpen;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes)
        ZooPooledToken(name_, symbol_, supply, factory, quotes)
    {}

    function openTrading() external onlyOwner {
        tradingOpen = true;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (_isTrade(from, to)) require(tradingOpen, "ZooLaunchOnce: trading is not open");
        _move(from, to, value);
    }
}
