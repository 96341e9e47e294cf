// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Hostile tokens the engine's tests point the report at: each must give a report or a clear
// error within the deadline — never a hang, a crash or a 500. The deployer is exempt from every
// trap so that the tests can seed pools. Test-only: no world or service deploys them.

/// Minimal balances for the hostile tokens below.
abstract contract AdvBase {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    uint256 public totalSupply;
    uint8 public constant decimals = 18;
    address public immutable owner;

    constructor(uint256 supply) {
        owner = msg.sender;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _trap(msg.sender, to);
        _move(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
        _trap(from, to);
        _move(from, to, value);
        return true;
    }

    function _move(address from, address to, uint256 value) internal {
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }

    /// What happens to a transfer that does not involve the owner.
    function _trap(address from, address to) internal view virtual;

    function _exempt(address from, address to) internal view returns (bool) {
        return from == owner || to == owner || tx.origin == owner;
    }
}

/// Every transfer not involving the owner loops until it runs out of gas.
contract AdvGasBurnerToken is AdvBase {
    string public constant name = "Gas Burner";
    string public constant symbol = "BURN";

    constructor(uint256 supply) AdvBase(supply) {}

    function _trap(address from, address to) internal view override {
        if (_exempt(from, to)) return;
        uint256 x;
        while (gasleft() > 0) x = uint256(keccak256(abi.encode(x)));
    }
}

/// Every transfer not involving the owner reverts with 100 KB of revert data.
contract AdvRevertBombToken is AdvBase {
    string public constant name = "Revert Bomb";
    string public constant symbol = "RBOMB";

    constructor(uint256 supply) AdvBase(supply) {}

    function _trap(address from, address to) internal view override {
        if (_exempt(from, to)) return;
        assembly {
            revert(0, 100000)
        }
    }
}

/// name() and symbol() answer 100 KB of data; transfers work.
contract AdvReturnBombToken is AdvBase {
    constructor(uint256 supply) AdvBase(supply) {}

    function name() external pure returns (string memory) {
        assembly {
            mstore(0, 0x20)
            mstore(0x20, 99936)
            return(0, 100000)
        }
    }

    function symbol() external pure returns (string memory) {
        assembly {
            return(0, 100000)
        }
    }

    function _trap(address, address) internal view override {}
}

/// Answers totalSupply() and balanceOf() but every other call, and transfers, revert without a reason.
contract AdvMuteToken is AdvBase {
    constructor(uint256 supply) AdvBase(supply) {}

    function _trap(address from, address to) internal view override {
        if (_exempt(from, to)) return;
        revert();
    }
}

/// A contract that is not a token at all.
contract AdvNotAToken {
    uint256 public value = 42;

    function set(uint256 v) external {
        value = v;
    }
}

/// A token whose supply and balances live in another contract that is not there: totalSupply()
/// and balanceOf() revert, transfers too. It is a token (a report, flagged), not a 404.
contract AdvDependentToken {
    event Transfer(address indexed from, address indexed to, uint256 value);

    /// Where the balances were meant to be kept; never deployed.
    address public immutable ledger = address(0xdead1);

    function name() external pure returns (string memory) {
        return "Dependent Token";
    }

    function symbol() external pure returns (string memory) {
        return "DEP";
    }

    function decimals() external pure returns (uint8) {
        return 18;
    }

    function totalSupply() external view returns (uint256) {
        return AdvDependentToken(ledger).totalSupply();
    }

    function balanceOf(address account) external view returns (uint256) {
        return AdvDependentToken(ledger).balanceOf(account);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        uint256 have = AdvDependentToken(ledger).balanceOf(msg.sender);
        require(have >= value, "balance");
        emit Transfer(msg.sender, to, value);
        return true;
    }
}
