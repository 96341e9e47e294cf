// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The world's helpers for the venues whose published packages ship no periphery the world can use:
/// PancakeSwap V3's pool deployer (its v3-core package ships the factory and the pool, not the
/// deployer the factory calls), a liquidity helper answering V3-style mint callbacks, and a CREATE2
/// deployer that puts Uniswap V4 hooks at addresses carrying their permission bits.

interface IWorldErc20 {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

interface IWorldV3Pool {
    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data)
        external
        returns (uint256, uint256);
    function token0() external view returns (address);
    function token1() external view returns (address);
}

/// Deploys, at the CREATE2 address of `salt`, the creation code kept as the code of `codeHolder`
/// (a pool's published creation code, too large to be a contract's own); address zero on failure.
function deployCodeOf(address codeHolder, bytes32 salt) returns (address deployed) {
    bytes memory code = new bytes(codeHolder.code.length);
    assembly {
        extcodecopy(codeHolder, add(code, 0x20), 0, mload(code))
        deployed := create2(0, add(code, 0x20), mload(code), salt)
    }
}

/// What a V3-style pool's constructor reads from its deployer's `parameters()`.
struct PoolParameters {
    address factory;
    address token0;
    address token1;
    uint24 fee;
    int24 tickSpacing;
}

/// PancakeSwap V3's pool deployer interface (IPancakeV3PoolDeployer): the factory asks it to
/// deploy each pool, and the pool's constructor reads `parameters()` from it. The pool's creation
/// code is the published artifact's, kept as the code of `poolCode` and copied from there.
contract WorldPancakePoolDeployer {
    PoolParameters public parameters;
    address public factoryAddress;
    address public immutable poolCode;
    address private immutable admin;

    constructor(address poolCode_) {
        poolCode = poolCode_;
        admin = msg.sender;
    }

    function setFactoryAddress(address factory) external {
        require(msg.sender == admin && factoryAddress == address(0), "WorldPancakePoolDeployer: set once by its deployer");
        factoryAddress = factory;
    }

    function deploy(address factory, address token0, address token1, uint24 fee, int24 tickSpacing) external returns (address pool) {
        require(msg.sender == factoryAddress, "WorldPancakePoolDeployer: only the factory");
        parameters = PoolParameters({factory: factory, token0: token0, token1: token1, fee: fee, tickSpacing: tickSpacing});
        pool = deployCodeOf(poolCode, keccak256(abi.encode(token0, token1, fee)));
        require(pool != address(0), "WorldPancakePoolDeployer: pool creation failed");
        delete parameters;
    }
}

/// Adds liquidity to a V3-style pool for `payer` (who approved this contract), answering both
/// Uniswap's and PancakeSwap's mint callbacks.
contract WorldV3Liquidity {
    function mint(address pool, int24 tickLower, int24 tickUpper, uint128 amount) external {
        IWorldV3Pool(pool).mint(msg.sender, tickLower, tickUpper, amount, abi.encode(msg.sender));
    }

    function pancakeV3MintCallback(uint256 owed0, uint256 owed1, bytes calldata data) external {
        _pay(owed0, owed1, data);
    }

    function uniswapV3MintCallback(uint256 owed0, uint256 owed1, bytes calldata data) external {
        _pay(owed0, owed1, data);
    }

    function _pay(uint256 owed0, uint256 owed1, bytes calldata data) internal {
        address payer = abi.decode(data, (address));
        if (owed0 > 0) require(IWorldErc20(IWorldV3Pool(msg.sender).token0()).transferFrom(payer, msg.sender, owed0), "pay token0");
        if (owed1 > 0) require(IWorldErc20(IWorldV3Pool(msg.sender).token1()).transferFrom(payer, msg.sender, owed1), "pay token1");
    }
}

/// Deploys code at the CREATE2 address of a salt (the world mines salts whose address carries a
/// V4 hook's permission bits).
contract WorldCreate2 {
    function deploy(bytes32 salt, bytes calldata initCode) external payable returns (address out) {
        bytes memory code = initCode;
        assembly {
            out := create2(callvalue(), add(code, 0x20), mload(code), salt)
        }
        require(out != address(0), "WorldCreate2: creation failed");
    }
}

interface IWorldV3PoolInit {
    function initialize(uint160 sqrtPriceX96) external;
}

/// A concentrated-liquidity factory with Aerodrome Slipstream's interface: pools named by their
/// tick spacing (`getPool(a, b, int24)`), each spacing with its fee (`tickSpacingToFee`), pools
/// announced by `PoolCreated(token0, token1, tickSpacing, pool)`. The pools are the published
/// Uniswap V3 pool's code (kept as the code of `poolCode`), whose constructor reads `parameters()`
/// from here, as Slipstream's pools answer the same slot0, liquidity, fee, swap and callback.
contract WorldSlipstreamFactory {
    PoolParameters public parameters;
    address public immutable poolCode;
    mapping(int24 => uint24) public tickSpacingToFee;
    mapping(address => mapping(address => mapping(int24 => address))) public getPool;

    event PoolCreated(address indexed token0, address indexed token1, int24 indexed tickSpacing, address pool);

    constructor(address poolCode_) {
        poolCode = poolCode_;
        tickSpacingToFee[1] = 100;
        tickSpacingToFee[50] = 500;
        tickSpacingToFee[100] = 500;
        tickSpacingToFee[200] = 3000;
        tickSpacingToFee[2000] = 10000;
    }

    function createPool(address tokenA, address tokenB, int24 tickSpacing, uint160 sqrtPriceX96) external returns (address pool) {
        require(tokenA != tokenB, "WorldSlipstreamFactory: same token");
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        uint24 fee = tickSpacingToFee[tickSpacing];
        require(fee != 0, "WorldSlipstreamFactory: tick spacing not enabled");
        require(getPool[token0][token1][tickSpacing] == address(0), "WorldSlipstreamFactory: pool exists");
        parameters = PoolParameters({factory: address(this), token0: token0, token1: token1, fee: fee, tickSpacing: tickSpacing});
        pool = deployCodeOf(poolCode, keccak256(abi.encode(token0, token1, tickSpacing)));
        require(pool != address(0), "WorldSlipstreamFactory: pool creation failed");
        delete parameters;
        getPool[token0][token1][tickSpacing] = pool;
        getPool[token1][token0][tickSpacing] = pool;
        IWorldV3PoolInit(pool).initialize(sqrtPriceX96);
        emit PoolCreated(token0, token1, tickSpacing, pool);
    }
}
