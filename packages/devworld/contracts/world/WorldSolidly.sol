// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A Solidly-style exchange of our own writing, with Aerodrome's interface (the same function names
/// and events): a factory with one volatile (x·y = k) and one stable (x³y + y³x = k) pool per pair,
/// the fee per pool kind from the factory, pools that are their own LP token.

interface IWorldSolidlyToken {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
    function decimals() external view returns (uint8);
}

contract WorldSolidlyFactory {
    /// Fees in basis points, as Aerodrome's factory gives them: 0.05 % stable, 0.3 % volatile.
    uint256 public stableFee = 5;
    uint256 public volatileFee = 30;
    mapping(address => mapping(address => mapping(bool => address))) public getPool;
    address[] public allPools;

    event PoolCreated(address indexed token0, address indexed token1, bool indexed stable, address pool, uint256);

    function allPoolsLength() external view returns (uint256) {
        return allPools.length;
    }

    function getFee(address, bool stable) external view returns (uint256) {
        return stable ? stableFee : volatileFee;
    }

    function createPool(address tokenA, address tokenB, bool stable) external returns (address pool) {
        require(tokenA != tokenB, "WorldSolidlyFactory: same token");
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        require(getPool[token0][token1][stable] == address(0), "WorldSolidlyFactory: pool exists");
        pool = address(new WorldSolidlyPool{salt: keccak256(abi.encodePacked(token0, token1, stable))}(token0, token1, stable));
        getPool[token0][token1][stable] = pool;
        getPool[token1][token0][stable] = pool;
        allPools.push(pool);
        emit PoolCreated(token0, token1, stable, pool, allPools.length);
    }
}

contract WorldSolidlyPool {
    address public immutable factory;
    address public immutable token0;
    address public immutable token1;
    bool public immutable stable;
    uint256 internal immutable decimals0;
    uint256 internal immutable decimals1;
    uint256 internal constant MINIMUM_LIQUIDITY = 1_000;

    uint256 public reserve0;
    uint256 public reserve1;
    uint256 public blockTimestampLast;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Mint(address indexed sender, uint256 amount0, uint256 amount1);
    event Swap(address indexed sender, address indexed to, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out);
    event Sync(uint256 reserve0, uint256 reserve1);

    constructor(address token0_, address token1_, bool stable_) {
        factory = msg.sender;
        token0 = token0_;
        token1 = token1_;
        stable = stable_;
        decimals0 = 10 ** IWorldSolidlyToken(token0_).decimals();
        decimals1 = 10 ** IWorldSolidlyToken(token1_).decimals();
    }

    function getReserves() external view returns (uint256, uint256, uint256) {
        return (reserve0, reserve1, blockTimestampLast);
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        balanceOf[msg.sender] -= amount;
        balanceOf[to] += amount;
        emit Transfer(msg.sender, to, amount);
        return true;
    }

    /// Liquidity for what was sent to the pool beyond its reserves.
    function mint(address to) external returns (uint256 liquidity) {
        uint256 balance0 = IWorldSolidlyToken(token0).balanceOf(address(this));
        uint256 balance1 = IWorldSolidlyToken(token1).balanceOf(address(this));
        uint256 amount0 = balance0 - reserve0;
        uint256 amount1 = balance1 - reserve1;
        if (totalSupply == 0) {
            liquidity = _sqrt(amount0 * amount1) - MINIMUM_LIQUIDITY;
            _mintLp(address(1), MINIMUM_LIQUIDITY);
        } else {
            uint256 a = amount0 * totalSupply / reserve0;
            uint256 b = amount1 * totalSupply / reserve1;
            liquidity = a < b ? a : b;
        }
        require(liquidity > 0, "WorldSolidlyPool: no liquidity minted");
        _mintLp(to, liquidity);
        _update(balance0, balance1);
        emit Mint(msg.sender, amount0, amount1);
    }

    /// What the pool pays for `amountIn` of `tokenIn`, its fee taken from the input.
    function getAmountOut(uint256 amountIn, address tokenIn) public view returns (uint256) {
        amountIn -= amountIn * WorldSolidlyFactory(factory).getFee(address(this), stable) / 10_000;
        bool zeroIn = tokenIn == token0;
        (uint256 rIn, uint256 rOut) = zeroIn ? (reserve0, reserve1) : (reserve1, reserve0);
        if (!stable) return amountIn * rOut / (rIn + amountIn);
        (uint256 dIn, uint256 dOut) = zeroIn ? (decimals0, decimals1) : (decimals1, decimals0);
        uint256 k = _k(reserve0, reserve1);
        uint256 xIn = (rIn + amountIn) * 1e18 / dIn;
        uint256 y = _getY(xIn, k, rOut * 1e18 / dOut);
        uint256 yNow = rOut * 1e18 / dOut;
        return y >= yNow ? 0 : (yNow - y) * dOut / 1e18;
    }

    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata) external {
        require(amount0Out > 0 || amount1Out > 0, "WorldSolidlyPool: nothing out");
        require(amount0Out < reserve0 && amount1Out < reserve1, "WorldSolidlyPool: not enough liquidity");
        if (amount0Out > 0) require(IWorldSolidlyToken(token0).transfer(to, amount0Out), "WorldSolidlyPool: transfer failed");
        if (amount1Out > 0) require(IWorldSolidlyToken(token1).transfer(to, amount1Out), "WorldSolidlyPool: transfer failed");
        (uint256 in0, uint256 in1) = _settle(amount0Out, amount1Out);
        emit Swap(msg.sender, to, in0, in1, amount0Out, amount1Out);
    }

    /// What came in for the amounts sent out, checked against the curve (fees on the inputs), then the new reserves.
    function _settle(uint256 amount0Out, uint256 amount1Out) internal returns (uint256 in0, uint256 in1) {
        uint256 balance0 = IWorldSolidlyToken(token0).balanceOf(address(this));
        uint256 balance1 = IWorldSolidlyToken(token1).balanceOf(address(this));
        in0 = balance0 > reserve0 - amount0Out ? balance0 - (reserve0 - amount0Out) : 0;
        in1 = balance1 > reserve1 - amount1Out ? balance1 - (reserve1 - amount1Out) : 0;
        require(in0 > 0 || in1 > 0, "WorldSolidlyPool: nothing in");
        uint256 fee = WorldSolidlyFactory(factory).getFee(address(this), stable);
        require(_k(balance0 - in0 * fee / 10_000, balance1 - in1 * fee / 10_000) >= _k(reserve0, reserve1), "WorldSolidlyPool: K");
        _update(balance0, balance1);
    }

    /// x·y for volatile pools; x³y + y³x on amounts scaled to 18 decimals for stable ones.
    function _k(uint256 x, uint256 y) internal view returns (uint256) {
        if (!stable) return x * y;
        uint256 a = x * 1e18 / decimals0;
        uint256 b = y * 1e18 / decimals1;
        return _f(a, b);
    }

    function _f(uint256 x, uint256 y) internal pure returns (uint256) {
        uint256 x2 = x * x / 1e18;
        uint256 y2 = y * y / 1e18;
        return x * (y2 * y / 1e18) / 1e18 + (x2 * x / 1e18) * y / 1e18;
    }

    /// The y with f(x, y) = k, by Newton's method from `y`.
    function _getY(uint256 x, uint256 k, uint256 y) internal pure returns (uint256) {
        for (uint256 i = 0; i < 255; i++) {
            uint256 value = _f(x, y);
            // f'(y) = 3·x·y² + x³
            uint256 slope = 3 * x * (y * y / 1e18) / 1e18 + (x * x / 1e18) * x / 1e18;
            if (slope == 0) return y;
            uint256 previous = y;
            if (value < k) y += (k - value) * 1e18 / slope + 1;
            else y -= (value - k) * 1e18 / slope;
            uint256 diff = y > previous ? y - previous : previous - y;
            if (diff <= 1) {
                // Never below the curve: the pool keeps at least k.
                while (_f(x, y) < k) y += 1;
                return y;
            }
        }
        revert("WorldSolidlyPool: no convergence");
    }

    function _update(uint256 balance0, uint256 balance1) internal {
        reserve0 = balance0;
        reserve1 = balance1;
        blockTimestampLast = block.timestamp;
        emit Sync(balance0, balance1);
    }

    function _mintLp(address to, uint256 amount) internal {
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function _sqrt(uint256 y) internal pure returns (uint256 z) {
        if (y > 3) {
            z = y;
            uint256 x = y / 2 + 1;
            while (x < z) {
                z = x;
                x = (y / x + x) / 2;
            }
        } else if (y != 0) {
            z = 1;
        }
    }
}
