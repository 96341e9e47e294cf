// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IProbeV2Factory {
    function getPair(address a, address b) external view returns (address);
}

interface IProbeV3Factory {
    function getPool(address a, address b, uint24 fee) external view returns (address);
}

/** Solidly-style factories (Aerodrome, Velodrome): a volatile and a stable pool per pair, the fee per pool. */
interface IProbeSolidlyFactory {
    function getPool(address a, address b, bool stable) external view returns (address);
    function getFee(address pool, bool stable) external view returns (uint256);
}

/**
 * @title ProbeReaders
 * @notice The view helpers of tokenrisk's simulation contracts: batched reads of any contracts,
 * code sizes and balances of accounts, pools with their state, LP locks. Each read gets a bounded
 * amount of gas and of return data, so that one hostile contract cannot starve or bomb the others.
 */
abstract contract ProbeReaders {
    /** Gas given to one token or pool call: generous for fee swaps, bounded for gas burners. */
    uint256 internal constant CALL_GAS = 2_500_000;
    /** Return data kept from a view read (a name or symbol of 900 characters fits). */
    uint256 internal constant MAX_READ_RETURN = 1024;

    struct DexQuery {
        address factory;
        uint8 kind; // 2 = V2 factory (getPair), 3 = V3 factory (getPool per fee tier), 5 = Solidly factory (getPool volatile and stable)
        uint24[] fees;
    }

    struct PoolInfo {
        uint256 dex; // index into the queried dexes
        address pool;
        uint8 kind;
        uint24 fee;
        address quote;
        address token0;
        uint256 reserveToken; // V2 reserve, or the V3 pool's token balance
        uint256 reserveQuote;
        uint256 lpSupply; // V2 LP token supply
        uint160 sqrtPriceX96; // V3
        uint128 liquidity; // V3
        // Which of the above the pool (or its factory) answered, a bit each (POOL_READ_*): a read
        // that failed is unknown, never 0. The reserves need token0 too (it orders them).
        uint256 read;
    }

    /** PoolInfo.read bits. */
    uint256 internal constant POOL_READ_TOKEN0 = 1;
    uint256 internal constant POOL_READ_RESERVES = 2;
    uint256 internal constant POOL_READ_LP_SUPPLY = 4;
    uint256 internal constant POOL_READ_PRICE = 8;
    uint256 internal constant POOL_READ_LIQUIDITY = 16;
    uint256 internal constant POOL_READ_FEE = 32;

    /** A Solidly-style factory's query kind, and the kinds of its pools in `PoolInfo`. */
    uint8 internal constant KIND_SOLIDLY = 5;
    uint8 internal constant KIND_SOLIDLY_STABLE = 6;

    struct Lock {
        address owner;
        uint256 amount;
        uint256 unlockTime;
        bool withdrawn;
    }

    // ------------------------------------------------------------------------------------------
    // Readers (view helpers batched into one call)
    // ------------------------------------------------------------------------------------------

    struct Read {
        address target;
        bytes data;
    }

    struct ReadResult {
        bool success;
        bytes returnData;
    }

    /**
     * View reads of any contracts in one call (what Multicall3's aggregate3 does), each with a
     * bounded amount of gas and of return data, so that one hostile getter cannot starve or bomb
     * the others. A read that fails is `success == false`; this function itself never reverts.
     */
    function reads(Read[] calldata calls) external view returns (ReadResult[] memory out) {
        out = new ReadResult[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory ret) = _boundedRead(calls[i].target, calls[i].data);
            out[i] = ReadResult(ok, ret);
        }
    }

    /** One view read with bounded gas and at most MAX_READ_RETURN bytes of its answer kept. */
    function _boundedRead(address target, bytes memory data) internal view returns (bool ok, bytes memory ret) {
        assembly {
            ok := staticcall(CALL_GAS, target, add(data, 0x20), mload(data), 0, 0)
            let size := returndatasize()
            if gt(size, MAX_READ_RETURN) { size := MAX_READ_RETURN }
            ret := mload(0x40)
            mstore(ret, size)
            returndatacopy(add(ret, 0x20), 0, size)
            mstore(0x40, add(add(ret, 0x20), and(add(size, 31), not(31))))
        }
    }

    /**
     * Code sizes and token balances of accounts (top holders: contract or not, balance now), and
     * whether each balance was read (`read[i]` false: the read failed, the balance is unknown, not 0).
     */
    function accounts(address token, address[] calldata list)
        external
        view
        returns (uint256[] memory codeSizes, uint256[] memory balances, bool[] memory read)
    {
        codeSizes = new uint256[](list.length);
        balances = new uint256[](list.length);
        read = new bool[](list.length);
        for (uint256 i = 0; i < list.length; i++) {
            address a = list[i];
            uint256 size;
            assembly {
                size := extcodesize(a)
            }
            codeSizes[i] = size;
            if (token != address(0)) (balances[i], read[i]) = _staticUintRead(token, abi.encodeWithSelector(0x70a08231, a));
        }
    }

    /**
     * What makes an address found in storage a plausible account: its code size, its balance of
     * `token` and of the native coin (its nonce is read beside, by the node), and whether each token
     * balance was read (`read[i]` false: the read failed, the balance is unknown, not 0).
     */
    function presence(address token, address[] calldata list)
        external
        view
        returns (uint256[] memory codeSizes, uint256[] memory balances, uint256[] memory nativeBalances, bool[] memory read)
    {
        codeSizes = new uint256[](list.length);
        balances = new uint256[](list.length);
        nativeBalances = new uint256[](list.length);
        read = new bool[](list.length);
        for (uint256 i = 0; i < list.length; i++) {
            address a = list[i];
            uint256 size;
            assembly {
                size := extcodesize(a)
            }
            codeSizes[i] = size;
            (balances[i], read[i]) = _staticUintRead(token, abi.encodeWithSelector(0x70a08231, a));
            nativeBalances[i] = a.balance;
        }
    }

    /** Pools of `token` against each quote on each DEX, with their state (one call, no round trips). */
    function pools(address token, DexQuery[] calldata dexes, address[] calldata quotes) external view returns (PoolInfo[] memory out) {
        uint256 max;
        for (uint256 d = 0; d < dexes.length; d++) {
            max += quotes.length * (dexes[d].kind == 2 ? 1 : dexes[d].kind == KIND_SOLIDLY ? 2 : dexes[d].fees.length);
        }
        out = new PoolInfo[](max);
        uint256 n;
        for (uint256 d = 0; d < dexes.length; d++) {
            for (uint256 q = 0; q < quotes.length; q++) {
                if (quotes[q] != token) n = _dexPools(token, dexes[d], d, quotes[q], out, n);
            }
        }
        assembly {
            mstore(out, n)
        }
    }

    function _dexPools(address token, DexQuery calldata dex, uint256 d, address quote, PoolInfo[] memory out, uint256 n)
        internal
        view
        returns (uint256)
    {
        if (dex.kind == 2) {
            address pair = _staticAddress(dex.factory, abi.encodeCall(IProbeV2Factory.getPair, (token, quote)));
            if (pair != address(0) && pair.code.length > 0) out[n++] = _v2Info(d, pair, token, quote);
            return n;
        }
        if (dex.kind == KIND_SOLIDLY) return _solidlyPools(token, dex.factory, d, quote, out, n);
        for (uint256 f = 0; f < dex.fees.length; f++) {
            address pool = _staticAddress(dex.factory, abi.encodeCall(IProbeV3Factory.getPool, (token, quote, dex.fees[f])));
            if (pool != address(0) && pool.code.length > 0) out[n++] = _v3Info(d, pool, dex.fees[f], token, quote);
        }
        return n;
    }

    function _v2Info(uint256 d, address pair, address token, address quote) internal view returns (PoolInfo memory i) {
        i.dex = d;
        i.pool = pair;
        i.kind = 2;
        i.quote = quote;
        i.read = POOL_READ_FEE; // a V2 fee is the DEX's, not read from the pool
        bool token0Read = _token0(pair, i);
        (bool ok, bytes memory ret) = pair.staticcall{gas: CALL_GAS}(abi.encodeWithSelector(0x0902f1ac));
        if (ok && ret.length >= 64 && token0Read) {
            (uint256 r0, uint256 r1) = abi.decode(ret, (uint256, uint256));
            (i.reserveToken, i.reserveQuote) = i.token0 == token ? (r0, r1) : (r1, r0);
            i.read |= POOL_READ_RESERVES;
        }
        bool lpRead;
        (i.lpSupply, lpRead) = _staticUintRead(pair, abi.encodeWithSelector(0x18160ddd));
        if (lpRead) i.read |= POOL_READ_LP_SUPPLY;
    }

    /** The pool's token0, and whether it answered one. */
    function _token0(address pool, PoolInfo memory i) internal view returns (bool read) {
        uint256 word;
        (word, read) = _staticUintRead(pool, abi.encodeWithSelector(0x0dfe1681));
        if (!read) return false;
        i.token0 = address(uint160(word));
        i.read |= POOL_READ_TOKEN0;
    }

    /** The volatile and the stable pool of a Solidly-style factory: V2-like state, their fee (basis points) from the factory. */
    function _solidlyPools(address token, address factory, uint256 d, address quote, PoolInfo[] memory out, uint256 n)
        internal
        view
        returns (uint256)
    {
        for (uint256 s = 0; s < 2; s++) {
            bool stable = s == 1;
            address pool = _staticAddress(factory, abi.encodeCall(IProbeSolidlyFactory.getPool, (token, quote, stable)));
            if (pool == address(0) || pool.code.length == 0) continue;
            PoolInfo memory i = _v2Info(d, pool, token, quote);
            i.kind = stable ? KIND_SOLIDLY_STABLE : KIND_SOLIDLY;
            i.read &= ~POOL_READ_FEE;
            (uint256 fee, bool feeRead) = _staticUintRead(factory, abi.encodeCall(IProbeSolidlyFactory.getFee, (pool, stable)));
            if (feeRead && fee <= type(uint24).max) {
                i.fee = uint24(fee);
                i.read |= POOL_READ_FEE;
            }
            out[n++] = i;
        }
        return n;
    }

    function _v3Info(uint256 d, address pool, uint24 fee, address token, address quote) internal view returns (PoolInfo memory i) {
        i.dex = d;
        i.pool = pool;
        i.kind = 3;
        i.fee = fee;
        i.quote = quote;
        i.read = POOL_READ_FEE; // the tier the factory was asked for
        _token0(pool, i);
        (uint256 reserveToken, bool tokenRead) = _staticUintRead(token, abi.encodeWithSelector(0x70a08231, pool));
        (uint256 reserveQuote, bool quoteRead) = _staticUintRead(quote, abi.encodeWithSelector(0x70a08231, pool));
        if (tokenRead && quoteRead) {
            (i.reserveToken, i.reserveQuote) = (reserveToken, reserveQuote);
            i.read |= POOL_READ_RESERVES;
        }
        (bool ok, bytes memory ret) = pool.staticcall{gas: CALL_GAS}(abi.encodeWithSelector(0x3850c7bd));
        if (ok && ret.length >= 32) {
            i.sqrtPriceX96 = uint160(abi.decode(ret, (uint256)));
            i.read |= POOL_READ_PRICE;
        }
        (uint256 liquidity, bool liquidityRead) = _staticUintRead(pool, abi.encodeWithSelector(0x1a686502));
        if (liquidityRead) {
            i.liquidity = uint128(liquidity);
            i.read |= POOL_READ_LIQUIDITY;
        }
    }

    function _staticAddress(address target, bytes memory data) internal view returns (address) {
        return address(uint160(_staticUint(target, data)));
    }

    /** What a pair the token names (or a factory answers) is: a contract, a V2 pair, its sides and reserves. */
    struct PairCheck {
        address pair;
        uint256 codeSize;
        bool isPair; // getReserves() answered
        address factory;
        address token0;
        address token1;
        uint256 reserve0;
        uint256 reserve1;
    }

    /**
     * The pools a token recognises as its own: what its pair getters (`getters`, calldata such as
     * uniswapV2Pair()) answer, and the V2 pools of each factory against each quote (getPair, empty
     * ones too), each with a bit per flag getter (`flags`, such as automatedMarketMakerPairs(address))
     * that answers non-zero for it. One call; every read bounded.
     */
    function ownPairs(address token, bytes[] calldata getters, address[] calldata factories, address[] calldata quotes, bytes4[] calldata flags)
        external
        view
        returns (PairCheck[] memory named, PairCheck[] memory pools, uint256[] memory flagged)
    {
        named = _namedPairs(token, getters);
        (pools, flagged) = _factoryPairs(token, factories, quotes, flags);
    }

    function _namedPairs(address token, bytes[] calldata getters) internal view returns (PairCheck[] memory named) {
        named = new PairCheck[](getters.length);
        for (uint256 i = 0; i < getters.length; i++) {
            (bool ok, bytes memory ret) = token.staticcall{gas: CALL_GAS}(getters[i]);
            if (ok && ret.length >= 32 && ret.length <= MAX_READ_RETURN) {
                uint256 v = abi.decode(ret, (uint256));
                if (v != 0 && v < (1 << 160)) named[i] = _pairCheck(address(uint160(v)));
            }
        }
    }

    function _factoryPairs(address token, address[] calldata factories, address[] calldata quotes, bytes4[] calldata flags)
        internal
        view
        returns (PairCheck[] memory pools, uint256[] memory flagged)
    {
        pools = new PairCheck[](factories.length * quotes.length);
        flagged = new uint256[](pools.length);
        uint256 n;
        for (uint256 i = 0; i < pools.length; i++) {
            address quote = quotes[i % quotes.length];
            if (quote == token) continue;
            address pair = _staticAddress(factories[i / quotes.length], abi.encodeCall(IProbeV2Factory.getPair, (token, quote)));
            if (pair == address(0)) continue;
            pools[n] = _pairCheck(pair);
            flagged[n++] = _flags(token, pair, flags);
        }
        assembly {
            mstore(pools, n)
            mstore(flagged, n)
        }
    }

    /** A bit per flag getter that answers non-zero for `pair`. */
    function _flags(address token, address pair, bytes4[] calldata flags) internal view returns (uint256 bits) {
        for (uint256 k = 0; k < flags.length && k < 256; k++) {
            if (_staticUint(token, abi.encodeWithSelector(flags[k], pair)) != 0) bits |= 1 << k;
        }
    }

    function _pairCheck(address pair) internal view returns (PairCheck memory c) {
        c.pair = pair;
        c.codeSize = pair.code.length;
        if (c.codeSize == 0) return c;
        (bool ok, bytes memory ret) = pair.staticcall{gas: CALL_GAS}(abi.encodeWithSelector(0x0902f1ac));
        if (ok && ret.length >= 64) {
            c.isPair = true;
            (c.reserve0, c.reserve1) = abi.decode(ret, (uint256, uint256));
        }
        c.factory = _staticAddress(pair, abi.encodeWithSelector(0xc45a0155));
        c.token0 = _staticAddress(pair, abi.encodeWithSelector(0x0dfe1681));
        c.token1 = _staticAddress(pair, abi.encodeWithSelector(0xd21220a7));
    }

    /**
     * Locks of an LP token in a locker. kind 1: tokenrisk's LpLocker (lockCount/lockAt);
     * kind 2: UNCX-style V2 locker (getNumLocksForToken/tokenLocks); kind 3: PinkLock02-style
     * locker (totalLockCountForToken/getLocksForToken), where the amount still locked is
     * amount - unlockedAmount and the unlock time is the lock's first release (tgeDate): the
     * date from which part of a vesting lock can already be withdrawn.
     */
    function locks(address locker, uint8 kind, address lpToken, uint256 max) external view returns (Lock[] memory out) {
        uint256 count;
        if (kind == 1) count = _staticUint(locker, abi.encodeWithSignature("lockCount(address)", lpToken));
        else if (kind == 2) count = _staticUint(locker, abi.encodeWithSignature("getNumLocksForToken(address)", lpToken));
        else if (kind == 3) count = _staticUint(locker, abi.encodeWithSignature("totalLockCountForToken(address)", lpToken));
        if (count > max) count = max;
        out = new Lock[](count);
        for (uint256 i = 0; i < count; i++) {
            if (kind == 1) {
                (bool ok, bytes memory ret) = locker.staticcall{gas: CALL_GAS}(abi.encodeWithSignature("lockAt(address,uint256)", lpToken, i));
                if (ok && ret.length >= 128) {
                    (out[i].owner, out[i].amount, out[i].unlockTime, out[i].withdrawn) = abi.decode(ret, (address, uint256, uint256, bool));
                }
            } else if (kind == 3) {
                out[i] = _pinkLock(locker, lpToken, i);
            } else {
                (bool ok, bytes memory ret) = locker.staticcall{gas: CALL_GAS}(abi.encodeWithSignature("tokenLocks(address,uint256)", lpToken, i));
                if (ok && ret.length >= 192) {
                    (, uint256 amount,, uint256 unlockDate,, address owner) =
                        abi.decode(ret, (uint256, uint256, uint256, uint256, uint256, address));
                    out[i] = Lock(owner, amount, unlockDate, amount == 0);
                }
            }
        }
    }

    /**
     * Lock `index` of a PinkLock02-style locker, read with getLocksForToken(lpToken, index, index)
     * and decoded by hand with bounds checks, so that a malformed answer gives an empty lock
     * rather than a revert of the whole read. Words of a lock: id, token, owner, amount,
     * lockDate, tgeDate, tgeBps, cycle, cycleBps, unlockedAmount, description offset.
     */
    function _pinkLock(address locker, address lpToken, uint256 index) internal view returns (Lock memory l) {
        (bool ok, bytes memory ret) =
            locker.staticcall{gas: CALL_GAS}(abi.encodeWithSignature("getLocksForToken(address,uint256,uint256)", lpToken, index, index));
        if (!ok) return l;
        uint256 arr = _word(ret, 0);
        if (arr > ret.length || _word(ret, arr) == 0) return l;
        uint256 element = _word(ret, arr + 32);
        if (element > ret.length) return l;
        uint256 base = arr + 32 + element;
        if (base + 320 > ret.length) return l;
        uint256 amount = _word(ret, base + 96);
        uint256 unlocked = _word(ret, base + 288);
        l.owner = address(uint160(_word(ret, base + 64)));
        l.amount = unlocked >= amount ? 0 : amount - unlocked;
        l.unlockTime = _word(ret, base + 160);
        l.withdrawn = l.amount == 0;
    }

    /** The 32-byte word of `data` at byte `offset`, or 0 past its end. */
    function _word(bytes memory data, uint256 offset) internal pure returns (uint256 w) {
        if (offset > data.length || data.length - offset < 32) return 0;
        assembly {
            w := mload(add(add(data, 32), offset))
        }
    }

    function _balanceOf(address token, address account) internal view returns (uint256) {
        return _staticUint(token, abi.encodeWithSelector(0x70a08231, account));
    }

    function _totalSupply(address token) internal view returns (uint256) {
        return _staticUint(token, abi.encodeWithSelector(0x18160ddd));
    }

    /** A word a view answers, and whether it answered one (every value, 2^256 - 1 included, is a value read). */
    function _staticUintRead(address target, bytes memory data) internal view returns (uint256 value, bool read) {
        uint256 size;
        assembly {
            read := staticcall(CALL_GAS, target, add(data, 0x20), mload(data), 0, 0)
            size := returndatasize()
            if and(read, gt(size, 31)) {
                returndatacopy(0, 0, 32)
                value := mload(0)
            }
        }
        read = read && size >= 32;
    }

    function _staticUint(address target, bytes memory data) internal view returns (uint256 value) {
        bool ok;
        assembly {
            ok := staticcall(CALL_GAS, target, add(data, 0x20), mload(data), 0, 0)
            if and(ok, gt(returndatasize(), 31)) {
                returndatacopy(0, 0, 32)
                value := mload(0)
            }
        }
    }
}

/**
 * @title TokenReader
 * @notice The readers alone: what view calls carry in their state override instead of the whole
 * probe (a fraction of its size, sent with every read).
 */
contract TokenReader is ProbeReaders {}
