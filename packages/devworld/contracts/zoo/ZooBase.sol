// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Building blocks of the tokenrisk token zoo. Every zoo token is one of these bases plus the
// one behaviour it exists to show, so that a token and its clean twin differ only in that
// behaviour. Names carry a `Zoo` prefix because contract names are unique across contracts/.

/// The part of Uniswap V2's factory the zoo needs to create its own pools.
interface IZooV2Factory {
    function createPair(address tokenA, address tokenB) external returns (address pair);
    function getPair(address tokenA, address tokenB) external view returns (address pair);
}

/// Balances, allowances and supply; no metadata and no public transfer functions, so that
/// tokens which bend ERC-20 (bytes32 metadata, no boolean return) can share it.
abstract contract ZooERC20Core {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    uint256 internal _totalSupply;
    mapping(address => uint256) internal _balances;
    mapping(address => mapping(address => uint256)) internal _allowances;

    function totalSupply() public view returns (uint256) {
        return _totalSupply;
    }

    function balanceOf(address account) public view virtual returns (uint256) {
        return _balances[account];
    }

    function allowance(address holder, address spender) public view returns (uint256) {
        return _allowances[holder][spender];
    }

    function _transfer(address from, address to, uint256 value) internal {
        require(from != address(0), "ERC20: transfer from the zero address");
        require(to != address(0), "ERC20: transfer to the zero address");
        _update(from, to, value);
    }

    function _mint(address to, uint256 value) internal {
        require(to != address(0), "ERC20: mint to the zero address");
        _update(address(0), to, value);
    }

    /// Every balance change goes through here; behaviours override it.
    function _update(address from, address to, uint256 value) internal virtual {
        _move(from, to, value);
    }

    /// The raw balance change and its Transfer event, with no rules attached.
    function _move(address from, address to, uint256 value) internal {
        if (from == address(0)) {
            _totalSupply += value;
        } else {
            uint256 balance = _balances[from];
            require(balance >= value, "ERC20: transfer amount exceeds balance");
            unchecked {
                _balances[from] = balance - value;
            }
        }
        if (to == address(0)) {
            unchecked {
                _totalSupply -= value;
            }
        } else {
            unchecked {
                _balances[to] += value;
            }
        }
        emit Transfer(from, to, value);
    }

    function _approve(address holder, address spender, uint256 value) internal {
        require(holder != address(0) && spender != address(0), "ERC20: approve with the zero address");
        _allowances[holder][spender] = value;
        emit Approval(holder, spender, value);
    }

    function _spendAllowance(address holder, address spender, uint256 value) internal {
        uint256 current = _allowances[holder][spender];
        if (current != type(uint256).max) {
            require(current >= value, "ERC20: insufficient allowance");
            unchecked {
                _allowances[holder][spender] = current - value;
            }
        }
    }
}

/// The standard transfer functions, returning true.
abstract contract ZooTransfers is ZooERC20Core {
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
        _approve(msg.sender, spender, value);
        return true;
    }
}

/// A standard ERC-20: string metadata kept in storage (so that proxies and clones can
/// initialise it) and transfer functions that return true.
abstract contract ZooERC20 is ZooTransfers {
    string private _name;
    string private _symbol;
    uint8 private _decimals;

    function _initMetadata(string memory name_, string memory symbol_, uint8 decimals_) internal {
        _name = name_;
        _symbol = symbol_;
        _decimals = decimals_;
    }

    function name() public view returns (string memory) {
        return _name;
    }

    function symbol() public view returns (string memory) {
        return _symbol;
    }

    function decimals() public view returns (uint8) {
        return _decimals;
    }
}

/// Single-owner access with renounce, kept in storage so that initialisers can set it.
abstract contract ZooOwnable {
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    address private _owner;

    modifier onlyOwner() {
        require(msg.sender == _owner, "ZooOwnable: caller is not the owner");
        _;
    }

    function owner() public view returns (address) {
        return _owner;
    }

    function transferOwnership(address newOwner) external onlyOwner {
        require(newOwner != address(0), "ZooOwnable: new owner is the zero address");
        _setOwner(newOwner);
    }

    function renounceOwnership() external onlyOwner {
        _setOwner(address(0));
    }

    function _setOwner(address newOwner) internal {
        emit OwnershipTransferred(_owner, newOwner);
        _owner = newOwner;
    }
}

/// A standard ERC-20 with an owner, set up in one call by a constructor or an initialiser:
/// metadata, owner, and the whole supply minted to the holder.
abstract contract ZooToken is ZooERC20, ZooOwnable {
    function _initToken(string memory name_, string memory symbol_, uint8 decimals_, uint256 supply, address holder) internal {
        _initMetadata(name_, symbol_, decimals_);
        _setOwner(holder);
        _mint(holder, supply);
    }
}

/// Runs `initialize` once, in the storage of the proxy or clone that delegates to it; the
/// implementation itself is locked at deployment so that no one can take it over.
abstract contract ZooInitializable {
    bool private _initialized;

    constructor() {
        _initialized = true;
    }

    modifier initializer() {
        require(!_initialized, "ZooInitializable: already initialized");
        _initialized = true;
        _;
    }
}

/// Knows its own Uniswap V2 pools: they are created in the constructor, against each quote
/// token given, and can never change afterwards (no one can mark another address a pool).
abstract contract ZooPools {
    mapping(address => bool) public isPool;

    function _createPools(address factory, address[] memory quotes) internal {
        for (uint256 i = 0; i < quotes.length; i++) {
            isPool[IZooV2Factory(factory).createPair(address(this), quotes[i])] = true;
        }
    }
}

/// The clean token's constructor plus its own pools (created here, never changed) and the
/// deployer, fixed at construction, to whom the trading rules of the tokens built on it do not
/// apply, so that it can seed the pools. Ownership confers nothing: transferring it moves no
/// exemption.
abstract contract ZooPooledToken is ZooToken, ZooPools {
    address internal immutable _exempt;

    constructor(string memory name_, string memory symbol_, uint256 supply, address factory, address[] memory quotes) {
        _exempt = msg.sender;
        _createPools(factory, quotes);
        _initToken(name_, symbol_, 18, supply, msg.sender);
    }

    /// A transfer the rules apply to: neither a mint, a burn, nor one of the deployer's.
    function _isTrade(address from, address to) internal view returns (bool) {
        return from != address(0) && to != address(0) && from != _exempt && to != _exempt;
    }
}
