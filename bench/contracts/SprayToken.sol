// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// An ERC-20 with a long history for `npm run bench:holders`: `mint` gives each of HOLDERS
/// addresses a balance, `churn` moves one unit at a time within a window of 256 of them, so
/// that one transaction emits about ten thousand Transfer events. Balances always match the
/// events: the holder index built from them must agree with balanceOf.
contract SprayToken {
    string public constant name = "Spray";
    string public constant symbol = "SPRAY";
    uint8 public constant decimals = 18;
    uint256 public constant HOLDERS = 20_000;
    uint256 private constant WINDOW = 256;

    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function holder(uint256 i) public pure returns (address) {
        return address(uint160(0x100000 + (i % HOLDERS)));
    }

    function mint(uint256 start, uint256 count, uint256 amount) external {
        for (uint256 i = start; i < start + count; i++) {
            address to = holder(i);
            balanceOf[to] += amount;
            emit Transfer(address(0), to, amount);
        }
        totalSupply += amount * count;
    }

    function churn(uint256 start, uint256 count) external {
        for (uint256 k = 0; k < count; k++) {
            address from = holder(start + (k % WINDOW));
            address to = holder(start + ((k * 7 + 1) % WINDOW));
            balanceOf[from] -= 1;
            balanceOf[to] += 1;
            emit Transfer(from, to, 1);
        }
    }

    function transfer(address to, uint256 value) external returns (bool) {
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value;
        emit Transfer(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        allowance[from][msg.sender] -= value;
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
        return true;
    }
}
